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

type Delta = Extract<UIMessageChunk, { type: 'text-delta' | 'reasoning-delta' }>;
const isDelta = (chunk: UIMessageChunk): chunk is Delta => chunk.type === 'text-delta' || chunk.type === 'reasoning-delta';

/**
 * The assistant message a run is writing, built from its chunks off the hot path: chunks
 * are only collected as they pass, and folded into the message when a step ends or a
 * snapshot is wanted. Relaying a token therefore costs no message copy.
 *
 * Consecutive deltas of one text (or reasoning) part are collected as one: the reducer
 * appends each delta to its part, so one merged delta folds to the same message, and the
 * reducer (which copies the message after every chunk) runs once per part, not per token.
 */
export class MessageBuilder {
  private committed: Promise<UIMessage | undefined>;
  private pending: UIMessageChunk[] = [];
  /** The last pending chunk when it is a merged delta this builder owns (never a relayed chunk). */
  private merged: Delta | undefined;

  constructor(base: UIMessage | undefined) {
    this.committed = Promise.resolve(base);
  }

  push(chunk: UIMessageChunk): void {
    const last = this.pending.at(-1);
    if (isDelta(chunk) && last && last.type === chunk.type && (last as Delta).id === chunk.id) {
      // The chunks are also the run's events: merge into a copy, never into one of them.
      if (this.merged !== last) {
        this.merged = { ...(last as Delta) };
        this.pending[this.pending.length - 1] = this.merged;
      }
      this.merged.delta += chunk.delta;
      if (chunk.providerMetadata !== undefined) this.merged.providerMetadata = chunk.providerMetadata;
      return;
    }
    this.merged = undefined;
    this.pending.push(chunk);
  }

  /** Folds everything so far into the message (at a step's end, and at the run's end). */
  commit(): Promise<UIMessage | undefined> {
    const chunks = this.pending;
    this.pending = [];
    this.merged = undefined;
    this.committed = this.committed.then((message) => applyChunks(message, chunks));
    return this.committed;
  }

  /** The message as it stands, without folding (a mid-step snapshot). */
  peek(): Promise<UIMessage | undefined> {
    // A copy of the merged delta: it may still grow after this snapshot is taken.
    const chunks = this.pending.map((c) => (c === this.merged ? { ...c } : c));
    return this.committed.then((message) => applyChunks(message, chunks));
  }
}
