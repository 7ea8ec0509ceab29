// Pacing and abort of the SSE body, observed from the producer's side.
import { describe, expect, it } from 'vitest';
import { DROP_MESSAGE, pacedSseStream, splitArguments, splitWords } from './sse';

function* counted(total: number, seen: { n: number }) {
  for (let i = 0; i < total; i++) {
    seen.n++;
    yield JSON.stringify({ i });
  }
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let text = '';
  for await (const bytes of stream) text += decoder.decode(bytes, { stream: true });
  return text;
}

describe('splitting', () => {
  it('keeps the exact text and always splits arguments', () => {
    const text = '  Hello,\n\nworld  again ';
    expect(splitWords(text).join('')).toBe(text);
    expect(splitWords(text)).toEqual(['  ', 'Hello,\n\n', 'world  ', 'again ']);
    for (const args of ['{}', '{"a":1}', JSON.stringify({ task: 'x'.repeat(100) })]) {
      expect(splitArguments(args).length).toBeGreaterThanOrEqual(2);
      expect(splitArguments(args).join('')).toBe(args);
    }
  });
});

describe('pacedSseStream', () => {
  it('writes SSE events and [DONE], quickly when the delay is 0', async () => {
    const started = performance.now();
    const text = await readAll(pacedSseStream(counted(2000, { n: 0 }), { delayMs: 0, end: 'done' }));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(text.startsWith('data: {"i":0}\n\ndata: {"i":1}\n\n')).toBe(true);
    expect(text.endsWith('data: {"i":1999}\n\ndata: [DONE]\n\n')).toBe(true);
  });

  it('pauses between events', async () => {
    const started = performance.now();
    await readAll(pacedSseStream(counted(5, { n: 0 }), { delayMs: 20, end: 'done' }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('stops producing when the request is aborted', async () => {
    const seen = { n: 0 };
    const abort = new AbortController();
    const reader = pacedSseStream(counted(1000, seen), { delayMs: 5, signal: abort.signal, end: 'done' }).getReader();
    await reader.read();
    await reader.read();
    abort.abort(new Error('client went away'));
    await expect(reader.read()).rejects.toThrow('client went away');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.n).toBe(2);
  });

  it('stops producing when the reader cancels', async () => {
    const seen = { n: 0 };
    const reader = pacedSseStream(counted(1000, seen), { delayMs: 5, end: 'done' }).getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.n).toBe(1);
  });

  it('errors instead of [DONE] when dropping', async () => {
    const stream = pacedSseStream(counted(2, { n: 0 }), { delayMs: 0, end: 'drop' });
    await expect(readAll(stream)).rejects.toThrow(DROP_MESSAGE);
  });
});
