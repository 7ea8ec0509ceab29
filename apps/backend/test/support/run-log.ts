import type { BatonUIMessageChunk } from '@baton/schemas';
import type { RunEvent, RunEventReader } from '../../src/agent/runs/run-channel';

/** A run's log handed out in the given batches; a batch waits until its gate opens (for the streams' unit tests). */
export function runLog(batches: { chunks: BatonUIMessageChunk[]; gate?: Promise<void> }[]): RunEventReader {
  let seq = 0;
  let i = 0;
  return {
    async next() {
      const batch = batches[i++];
      if (!batch) return undefined;
      await batch.gate;
      return batch.chunks.map((chunk): RunEvent => ({ seq: seq++, chunk }));
    },
    cancel() {},
  };
}

/** A promise to hold a batch back, and the function that lets it go. */
export function gate(): { gate: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { gate: promise, open };
}

/** Reads a stream until a keep-alive comment has come, opens the gate, and reads the rest. */
export async function readPastKeepAlive(res: Response, open: () => void): Promise<string> {
  const body = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(': keep-alive')) text += decoder.decode((await body.read()).value);
  open();
  for (let next = await body.read(); !next.done; next = await body.read()) text += decoder.decode(next.value);
  return text;
}
