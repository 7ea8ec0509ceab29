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

  it('passes reads of whole lines on as they came, and holds back what a read leaves unfinished (a line, a character)', async () => {
    const encoder = new TextEncoder();
    const plain = `data: ${JSON.stringify(delta({ content: 'Otters ' }))}\n\n`;
    const detailed = `data: ${JSON.stringify(delta({ reasoning_details: [{ type: 'reasoning.text', text: 'hm' }] }))}\n\n`;
    // A read that ends with a newline and then the first byte of "€", the rest in the next read.
    const euro = encoder.encode(': a\n€ b\n\n');
    const pieces = [
      encoder.encode(plain),
      encoder.encode(detailed),
      encoder.encode(plain.slice(0, 10)),
      encoder.encode(`${plain.slice(10)}`),
      euro.slice(0, 5),
      euro.slice(5),
      encoder.encode('data: [DONE]\n\n'),
    ];
    const first = pieces[0]!;
    const source = (async () => {
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= pieces.length) return controller.close();
          controller.enqueue(pieces[at++]!);
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof fetch;
    const reader = (await withReasoningDetails(source)('http://x')).body!.getReader();
    const reads: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(r.value);
    // The first read went on untouched: the very same bytes.
    expect(reads[0]).toBe(first);
    const text = new TextDecoder().decode(Buffer.concat(reads));
    expect(text).toBe(
      `${plain}data: ${JSON.stringify(delta({ reasoning_details: [{ type: 'reasoning.text', text: 'hm' }], reasoning: 'hm' }))}\n\n${plain}: a\n€ b\n\ndata: [DONE]\n\n`,
    );
  });

  it('also in a JSON (non-streamed) answer', async () => {
    const body = JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content: 'x', reasoning_details: [{ type: 'reasoning.text', text: 'why' }] } }],
    });
    const answer = await (await withReasoningDetails(answering(body, 5, 'application/json'))('http://x')).json();
    expect(answer.choices[0].message.reasoning).toBe('why');
  });
});
