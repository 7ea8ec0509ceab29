/** How long Baton waits on a model provider before ending the turn with a timeout error. */
export interface ModelTimeouts {
  /** From sending the request to the first byte of the answer. */
  firstByteMs: number;
  /** Between two chunks of a streamed answer. */
  idleMs: number;
}

export const DEFAULT_MODEL_TIMEOUTS: ModelTimeouts = { firstByteMs: 60_000, idleMs: 60_000 };

/**
 * The AI SDK treats an error named `TimeoutError` like an abort: it is not retried, and it
 * reaches the turn as the stream's error with this message.
 */
export class ModelTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly isModelTimeout = true;
}

export const isModelTimeout = (err: unknown): err is ModelTimeoutError =>
  typeof err === 'object' && err !== null && (err as { isModelTimeout?: unknown }).isModelTimeout === true;

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * Wraps a provider's fetch with the two time limits. A provider that stalls would
 * otherwise hold the chat's run (and its lock) for as long as the socket stays open.
 */
export function withModelTimeouts(baseFetch: typeof fetch, limits: ModelTimeouts): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const abort = new AbortController();
    const outer = init?.signal;
    const onOuterAbort = () => abort.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });

    let timer: NodeJS.Timeout | undefined;
    let timedOut: ModelTimeoutError | undefined;
    // One timer per request, not one per chunk: a chunk only notes when it came, and the
    // timer, when it fires, waits again for whatever is left of the limit since then.
    let limitMs = limits.firstByteMs;
    let message = `The model did not start answering within ${seconds(limits.firstByteMs)}. Try again, or check the provider.`;
    let lastChunkAt = performance.now();
    const check = () => {
      const quietFor = performance.now() - lastChunkAt;
      if (quietFor < limitMs) {
        timer = setTimeout(check, limitMs - quietFor);
        return;
      }
      timedOut = new ModelTimeoutError(message);
      abort.abort(timedOut);
    };
    const disarm = () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    };

    // Once the request is aborted (a limit, or the caller's Stop), nothing below waits on the
    // provider any longer: the fetch is raced, and a pending read of its body ends (its
    // reader is cancelled). A fetch or body that does not honour its signal must not hold the
    // run — one did not: the in-process demo model's request after a garbage collection, as
    // undici's Request follows a signal only while the Request object lives (nodejs/undici#3644).
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => {
        reject(timedOut ?? abort.signal.reason);
        reader?.cancel(abort.signal.reason).catch(() => {});
      };
      if (abort.signal.aborted) onAbort();
      else abort.signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});

    timer = setTimeout(check, limitMs);
    let response: Response;
    try {
      response = await Promise.race([baseFetch(input, { ...init, signal: abort.signal }), aborted]);
    } catch (err) {
      disarm();
      throw timedOut ?? err;
    }
    if (!response.body) {
      disarm();
      return response;
    }
    const bodyReader = response.body.getReader();
    reader = bodyReader;
    let started = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await bodyReader.read();
          // Ended by the abort (the reader was cancelled), whether or not the provider noticed.
          if (abort.signal.aborted) throw timedOut ?? abort.signal.reason;
          if (done) {
            disarm();
            return controller.close();
          }
          lastChunkAt = performance.now();
          if (!started) {
            // From now on the idle limit applies, counted from this chunk.
            started = true;
            limitMs = limits.idleMs;
            message = `The model stopped sending for ${seconds(limits.idleMs)} in the middle of its answer. What arrived so far is kept.`;
            clearTimeout(timer);
            timer = setTimeout(check, limitMs);
          }
          controller.enqueue(value);
        } catch (err) {
          disarm();
          controller.error(timedOut ?? err);
        }
      },
      cancel(reason) {
        disarm();
        return bodyReader.cancel(reason);
      },
    });
    // The first-byte timer keeps running until the body's first chunk: headers alone are not an answer.
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;
}
