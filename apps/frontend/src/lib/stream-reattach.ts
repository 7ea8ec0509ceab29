/*
 * An answer's stream can drop while the answer goes on: a proxy's idle timeout, a network
 * change, a server restart of the web app's proxy. The run lives on the server, so a
 * dropped stream is no failed answer: the page reads the run again from the event after the
 * last one it got (`GET …/chats/:id/stream` with `Last-Event-ID`), and the chat never sees
 * the gap — it stays "answering" (Stop works) and the words continue where they stopped.
 */

/**
 * Waits before each try to read the run again: about a minute in all (cut short when the
 * browser comes back online), then the drop is the answer's error.
 */
export const REATTACH_DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000];

/** The run could not be reached just now (the web app's proxy answered 5xx: the backend is restarting). */
export class RunUnreachableError extends Error {
  override readonly name = 'RunUnreachableError';
}

/**
 * A lost connection, as opposed to an answer that failed: fetch rejects network errors
 * with a TypeError ("network error", "Failed to fetch", "Load failed", "terminated").
 */
export const isConnectionLost = (err: unknown): boolean => err instanceof TypeError || err instanceof RunUnreachableError;

/** The run's stream after event `afterSeq` (-1: from its start), or 'ended' when nothing runs any more (204). */
export type ReadRunAfter = (afterSeq: number, signal: AbortSignal | undefined) => Promise<ReadableStream<Uint8Array> | 'ended'>;

export interface ReattachOptions {
  readAfter: ReadRunAfter;
  /** The chat's abort signal: Stop ends the stream, never a reattach. */
  signal?: AbortSignal;
  /** The run ended while this page was cut off: the stream ends here, and the stored answer tells how it ended. */
  onEndedUnseen: () => void;
  delaysMs?: readonly number[];
}

/** Waits `ms`, or less when the browser comes back online (no point waiting any longer then). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const online = typeof window === 'undefined' ? undefined : window;
    const timer = setTimeout(done, ms);
    function cleanUp() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      online?.removeEventListener('online', done);
    }
    function done() {
      cleanUp();
      resolve();
    }
    function onAbort() {
      cleanUp();
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    online?.addEventListener('online', done, { once: true });
  });
}

const ID_LINE = /^id: ?(\d+)$/gm;
const encoder = new TextEncoder();

/**
 * A run's SSE body (Baton's: each event has its sequence number as `id`) continued through
 * drops of the connection. Only whole events are passed on, so the parser never sees half
 * an event before the rest of another; after a drop the unfinished event is dropped too and
 * the run is read again after the last whole event. This works on the bytes, before the AI
 * SDK parses them: a parsing pipeline that fails discards the events it had queued.
 */
export function reattachOnDrop(body: ReadableStream<Uint8Array>, options: ReattachOptions): ReadableStream<Uint8Array> {
  const { readAfter, signal, onEndedUnseen, delaysMs = REATTACH_DELAYS_MS } = options;
  let reader = body.getReader();
  let decoder = new TextDecoder();
  let partial = '';
  let lastSeq = -1;

  async function readAgain(dropped: unknown): Promise<ReadableStream<Uint8Array> | 'ended'> {
    let lastError = dropped;
    for (const delay of delaysMs) {
      await sleep(delay, signal);
      try {
        return await readAfter(lastSeq, signal);
      } catch (err) {
        if (signal?.aborted || !isConnectionLost(err)) throw err;
        lastError = err;
      }
    }
    throw lastError;
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (err) {
          if (signal?.aborted || !isConnectionLost(err)) throw err;
          const next = await readAgain(err);
          if (next === 'ended') {
            onEndedUnseen();
            return controller.close();
          }
          reader = next.getReader();
          decoder = new TextDecoder();
          partial = '';
          continue;
        }
        if (read.done) {
          partial += decoder.decode();
          if (partial) controller.enqueue(encoder.encode(partial));
          return controller.close();
        }
        partial += decoder.decode(read.value, { stream: true });
        const end = partial.lastIndexOf('\n\n');
        if (end === -1) continue;
        const whole = partial.slice(0, end + 2);
        partial = partial.slice(end + 2);
        for (const [, seq] of whole.matchAll(ID_LINE)) lastSeq = Number(seq);
        return controller.enqueue(encoder.encode(whole));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
