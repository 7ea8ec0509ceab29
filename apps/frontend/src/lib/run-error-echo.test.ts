import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { dropRunErrorEcho } from './run-error-echo';

async function through(chunks: UIMessageChunk[]): Promise<string[]> {
  const out: string[] = [];
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  }).pipeThrough(dropRunErrorEcho());
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value.type);
  return out;
}

describe('dropRunErrorEcho', () => {
  it('drops the error chunk that repeats a stored run error', async () => {
    const runError = { type: 'data-run-error', data: { code: 'provider_error', message: 'down' } } as UIMessageChunk;
    expect(await through([{ type: 'start' }, runError, { type: 'finish' }, { type: 'error', errorText: 'down' }])).toEqual([
      'start',
      'data-run-error',
      'finish',
    ]);
  });

  it('keeps an error chunk of its own', async () => {
    expect(await through([{ type: 'start' }, { type: 'error', errorText: 'could not read' }])).toEqual(['start', 'error']);
  });
});
