import { describe, expect, it } from 'vitest';
import { isModelTimeout, withModelTimeouts } from './model-timeouts';

const encoder = new TextEncoder();

/** Waits `ms`, or rejects with the signal's reason once it aborts (as fetch and its body do). */
function wait(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** A fetch whose answer sends `chunks` pieces `everyMs` apart, then ends (or, from `stallAfter` on, sends nothing). */
function pacedFetch({
  chunks,
  everyMs,
  stallAfter,
  headersAfterMs = 0,
  deaf = false,
}: {
  chunks: number;
  everyMs: number;
  stallAfter?: number;
  headersAfterMs?: number;
  /** Ignores the request's signal, as a request whose link to it was lost does. */
  deaf?: boolean;
}): typeof fetch {
  return (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const signal = deaf ? undefined : init?.signal;
    await wait(headersAfterMs, signal);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          // A provider that stalls keeps the connection open and sends nothing more.
          await wait(sent === stallAfter ? 3_600_000 : sent > 0 ? everyMs : 0, signal);
        } catch (err) {
          return controller.error(err);
        }
        if (sent === chunks) return controller.close();
        sent++;
        controller.enqueue(encoder.encode(`piece ${sent}\n`));
      },
    });
    return new Response(body);
  }) as typeof fetch;
}

async function readAll(res: Response): Promise<number> {
  let pieces = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) return pieces;
    pieces++;
  }
}

describe('withModelTimeouts', () => {
  it('lets a stream run far longer than the idle limit while chunks keep coming', async () => {
    // Limits far from the chunks' pace: a loaded machine (CI, other suites) delays timers by
    // tens of milliseconds, and that must not read as a silent model.
    const fetch = withModelTimeouts(pacedFetch({ chunks: 30, everyMs: 40 }), { firstByteMs: 2_000, idleMs: 400 });
    const started = Date.now();
    expect(await readAll(await fetch('http://model.test/v1/chat/completions'))).toBe(30);
    expect(Date.now() - started).toBeGreaterThan(2 * 400);
  });

  it('ends a stream that goes quiet mid-answer, after the idle limit counted from its last chunk', async () => {
    const fetch = withModelTimeouts(pacedFetch({ chunks: 100, everyMs: 30, stallAfter: 6 }), { firstByteMs: 5_000, idleMs: 300 });
    const started = Date.now();
    const err = await readAll(await fetch('http://model.test/')).catch((e: unknown) => e);
    expect(isModelTimeout(err)).toBe(true);
    expect((err as Error).message).toMatch(/stopped sending for 300 ms/);
    // 5 gaps of 30 ms, then the 300 ms limit: long before the 5 s first-byte limit would end it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150 + 300 - 10);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('ends a request whose answer never starts, after the first-byte limit', async () => {
    const fetch = withModelTimeouts(pacedFetch({ chunks: 3, everyMs: 10, stallAfter: 0 }), { firstByteMs: 150, idleMs: 5_000 });
    const err = await readAll(await fetch('http://model.test/')).catch((e: unknown) => e);
    expect(isModelTimeout(err)).toBe(true);
    expect((err as Error).message).toMatch(/did not start answering within 150 ms/);
  });

  it('counts the first-byte limit from the request, headers included', async () => {
    const fetch = withModelTimeouts(pacedFetch({ chunks: 3, everyMs: 10, headersAfterMs: 400 }), { firstByteMs: 150, idleMs: 5_000 });
    const err = await fetch('http://model.test/').catch((e: unknown) => e);
    expect(isModelTimeout(err)).toBe(true);
  });

  it('ends a stalled stream and a silent request at their limits even when the provider ignores the abort', async () => {
    const stalled = withModelTimeouts(pacedFetch({ chunks: 100, everyMs: 10, stallAfter: 3, deaf: true }), { firstByteMs: 5_000, idleMs: 200 });
    const err = await readAll(await stalled('http://model.test/')).catch((e: unknown) => e);
    expect(isModelTimeout(err)).toBe(true);
    const silent = withModelTimeouts(pacedFetch({ chunks: 3, everyMs: 10, headersAfterMs: 3_600_000, deaf: true }), { firstByteMs: 200, idleMs: 5_000 });
    expect(isModelTimeout(await silent('http://model.test/').catch((e: unknown) => e))).toBe(true);
  });

  it('ends a stalled stream when the caller aborts, even when the provider ignores the abort', async () => {
    const fetch = withModelTimeouts(pacedFetch({ chunks: 100, everyMs: 10, stallAfter: 3, deaf: true }), { firstByteMs: 5_000, idleMs: 5_000 });
    const stop = new AbortController();
    const res = await fetch('http://model.test/', { signal: stop.signal });
    const reading = readAll(res).catch((e: unknown) => e);
    setTimeout(() => stop.abort(new Error('stopped')), 100);
    expect(await reading).toMatchObject({ message: 'stopped' });
  });
});
