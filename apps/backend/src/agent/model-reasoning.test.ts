import { describe, expect, it } from 'vitest';
import { reasoningDetailsText, withReasoningDetails } from './model-reasoning';

const sse = (chunks: unknown[]) => chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
const delta = (d: Record<string, unknown>) => ({ id: 'x', choices: [{ index: 0, delta: d }] });

/** A fetch answering with `body`, cut into pieces of `size` bytes (lines split across network reads). */
function answering(body: string, size: number, type = 'text/event-stream'): typeof fetch {
  return (async () => {
    const bytes = new TextEncoder().encode(body);
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    });
    return new Response(stream, { headers: { 'content-type': type } });
  }) as typeof fetch;
}

describe('reasoning_details (OpenRouter’s array form)', () => {
  it('reads text and summary entries; encrypted ones have no text', () => {
    expect(
      reasoningDetailsText([
        { type: 'reasoning.text', text: 'a' },
        { type: 'reasoning.summary', summary: 'b' },
        { type: 'reasoning.encrypted', data: 'zz' },
      ]),
    ).toBe('ab');
    expect(reasoningDetailsText('nope')).toBe('');
  });

  it('becomes `reasoning` when a chunk carries it alone, however the stream is cut; other chunks pass unchanged', async () => {
    const body = sse([
      delta({ reasoning_details: [{ type: 'reasoning.text', text: 'Thinking “hard” 🦦' }] }),
      delta({ reasoning: 'kept', reasoning_details: [{ type: 'reasoning.text', text: 'not used' }] }),
      delta({ content: 'Otters.' }),
    ]);
    for (const size of [1, 7, body.length]) {
      const text = await (await withReasoningDetails(answering(body, size))('http://x')).text();
      const chunks = text
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)).choices[0].delta);
      expect(chunks[0].reasoning).toBe('Thinking “hard” 🦦');
      expect(chunks[1].reasoning).toBe('kept');
      expect(chunks[2]).toEqual({ content: 'Otters.' });
      expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    }
  });

  it('also in a JSON (non-streamed) answer', async () => {
    const body = JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content: 'x', reasoning_details: [{ type: 'reasoning.text', text: 'why' }] } }],
    });
    const answer = await (await withReasoningDetails(answering(body, 5, 'application/json'))('http://x')).json();
    expect(answer.choices[0].message.reasoning).toBe('why');
  });
});
