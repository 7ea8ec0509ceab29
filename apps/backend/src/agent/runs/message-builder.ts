import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';

/** Applies chunks to a copy of `base` with the AI SDK's own reducer (the one browsers run). */
export async function applyChunks(base: UIMessage | undefined, chunks: UIMessageChunk[]): Promise<UIMessage | undefined> {
  if (chunks.length === 0) return base;
  let i = 0;
  const stream = new ReadableStream<UIMessageChunk>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
  let message = base;
  for await (const snapshot of readUIMessageStream({ message: base && structuredClone(base), stream, terminateOnError: false })) {
    message = snapshot;
  }
  return message;
}

/**
 * The assistant message a run is writing, built from its chunks off the hot path: chunks
 * are only collected as they pass, and folded into the message when a step ends or a
 * snapshot is wanted. Relaying a token therefore costs no message copy.
 */
export class MessageBuilder {
  private committed: Promise<UIMessage | undefined>;
  private pending: UIMessageChunk[] = [];

  constructor(base: UIMessage | undefined) {
    this.committed = Promise.resolve(base);
  }

  push(chunk: UIMessageChunk): void {
    this.pending.push(chunk);
  }

  /** Folds everything so far into the message (at a step's end, and at the run's end). */
  commit(): Promise<UIMessage | undefined> {
    const chunks = this.pending;
    this.pending = [];
    this.committed = this.committed.then((message) => applyChunks(message, chunks));
    return this.committed;
  }

  /** The message as it stands, without folding (a mid-step snapshot). */
  peek(): Promise<UIMessage | undefined> {
    const chunks = this.pending.slice();
    return this.committed.then((message) => applyChunks(message, chunks));
  }
}
