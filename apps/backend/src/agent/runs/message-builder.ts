import type { BatonUIMessage, BatonUIMessageChunk } from '@baton/schemas';
import { createUIMessageStream, readUIMessageStream } from 'ai';
import { TimeSlices } from '../time-slices';

/**
 * Applies chunks to a copy of `base` with the AI SDK's own reducer (the one browsers run).
 *
 * Through `createUIMessageStream`'s `onEnd`, which folds the chunks into one message in
 * place, not `readUIMessageStream`, which deep-copies the whole message after every chunk:
 * with many parts (a step of 1,000 tool calls) that made a fold quadratic — 11 of the 18 s
 * such a turn took. The fold is read in time slices, so a long one lets the event loop turn
 * (see time-slices.ts).
 */
export async function applyChunks(base: BatonUIMessage | undefined, chunks: BatonUIMessageChunk[]): Promise<BatonUIMessage | undefined> {
  if (chunks.length === 0) return base;
  let folded: BatonUIMessage | undefined;
  const stream = createUIMessageStream({
    // The SDK folds into its own copy of the last message (an assistant message continues).
    originalMessages: base ? [base] : [],
    execute: ({ writer }) => {
      for (const chunk of chunks) writer.write(chunk);
    },
    onEnd: ({ responseMessage }) => {
      folded = responseMessage;
    },
  });
  // The reducer runs as the folded stream is read (its stages wait for their reader): reading
  // in time slices bounds each stretch of promise jobs.
  const slices = new TimeSlices();
  try {
    const reader = stream.getReader();
    for (;;) {
      await slices.pause();
      if ((await reader.read()).done) break;
    }
  } catch {
    // A chunk the reducer cannot apply (a delta without its part) ends the fold; the
    // per-chunk reader keeps what came before it, as the browser's reducer would.
    return foldUpToFailure(base, chunks);
  }
  return folded;
}

/** `chunks` as a stream that lets the event loop turn whenever a time slice is used up. */
function slicedStream(chunks: BatonUIMessageChunk[]): ReadableStream<BatonUIMessageChunk> {
  const slices = new TimeSlices();
  let i = 0;
  return new ReadableStream<BatonUIMessageChunk>({
    async pull(controller) {
      await slices.pause();
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

/** The message as far as the reducer could apply the chunks (the exceptional path: a copy per chunk). */
async function foldUpToFailure(base: BatonUIMessage | undefined, chunks: BatonUIMessageChunk[]): Promise<BatonUIMessage | undefined> {
  let message = base;
  for await (const snapshot of readUIMessageStream({ message: base && structuredClone(base), stream: slicedStream(chunks), terminateOnError: false })) {
    message = snapshot;
  }
  return message;
}

type Delta = Extract<BatonUIMessageChunk, { type: 'text-delta' | 'reasoning-delta' }>;
const isDelta = (chunk: BatonUIMessageChunk): chunk is Delta => chunk.type === 'text-delta' || chunk.type === 'reasoning-delta';

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
  private committed: Promise<BatonUIMessage | undefined>;
  private pending: BatonUIMessageChunk[] = [];
  /** The last pending chunk when it is a merged delta this builder owns (never a relayed chunk). */
  private merged: Delta | undefined;

  constructor(base: BatonUIMessage | undefined) {
    this.committed = Promise.resolve(base);
  }

  push(chunk: BatonUIMessageChunk): void {
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
  commit(): Promise<BatonUIMessage | undefined> {
    const chunks = this.pending;
    this.pending = [];
    this.merged = undefined;
    this.committed = this.committed.then((message) => applyChunks(message, chunks));
    return this.committed;
  }

  /** The message as it stands, without folding (a mid-step snapshot). */
  peek(): Promise<BatonUIMessage | undefined> {
    // A copy of the merged delta: it may still grow after this snapshot is taken.
    const chunks = this.pending.map((c) => (c === this.merged ? { ...c } : c));
    return this.committed.then((message) => applyChunks(message, chunks));
  }
}
