import type { BatonUIMessage, BatonUIMessageChunk } from '@baton/schemas';
import { readUIMessageStream } from 'ai';
import { describe, expect, it } from 'vitest';
import { applyChunks, MessageBuilder } from './message-builder';

const words = (id: string, text: string, type: 'text-delta' | 'reasoning-delta' = 'text-delta'): BatonUIMessageChunk[] =>
  (text.match(/\S+\s*/g) ?? []).map((delta) => ({ type, id, delta }) as BatonUIMessageChunk);

// Two steps with reasoning, two text parts, a tool call in between and provider metadata
// on some deltas: everything the reducer distinguishes.
const chunks: BatonUIMessageChunk[] = [
  { type: 'start', messageId: 'msg_1' },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'r1' },
  ...words('r1', 'Let me think about otters first. ', 'reasoning-delta'),
  { type: 'reasoning-end', id: 'r1' },
  { type: 'text-start', id: 't1' },
  ...words('t1', 'Otters hold hands while they sleep. '),
  { type: 'text-delta', id: 't1', delta: 'Really.', providerMetadata: { demo: { n: 1 } } },
  { type: 'text-delta', id: 't1', delta: '' },
  { type: 'text-end', id: 't1' },
  { type: 'tool-input-start', toolCallId: 'c1', toolName: 'calculator' },
  { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"expr' },
  { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'ession":"1+1"}' },
  { type: 'tool-input-available', toolCallId: 'c1', toolName: 'calculator', input: { expression: '1+1' } },
  { type: 'tool-output-available', toolCallId: 'c1', output: 2 },
  { type: 'finish-step' },
  { type: 'start-step' },
  { type: 'text-start', id: 't2' },
  ...words('t2', 'The answer is 2, and otters are great. '),
  { type: 'text-end', id: 't2' },
  { type: 'finish-step' },
  { type: 'finish' },
];

/** The AI SDK's per-chunk reader, the reference the fold must agree with (what the browser shows). */
async function perChunk(base: BatonUIMessage | undefined, all: BatonUIMessageChunk[]): Promise<BatonUIMessage | undefined> {
  let message = base;
  const stream = new ReadableStream<BatonUIMessageChunk>({
    start(controller) {
      for (const c of all) controller.enqueue(c);
      controller.close();
    },
  });
  for await (const snapshot of readUIMessageStream({ message: base && structuredClone(base), stream, terminateOnError: false })) message = snapshot;
  return message;
}

async function build(base: BatonUIMessage | undefined, all: BatonUIMessageChunk[], { peekAt = -1, commitAt = -1 } = {}) {
  const builder = new MessageBuilder(base);
  let peeked: Promise<BatonUIMessage | undefined> | undefined;
  all.forEach((chunk, i) => {
    builder.push(chunk);
    if (i === peekAt) peeked = builder.peek();
    if (i === commitAt) void builder.commit();
  });
  return { message: await builder.commit(), peeked: await peeked };
}

describe('MessageBuilder', () => {
  it('builds the message the AI SDK reducer builds from every chunk, deltas merged or not', async () => {
    const copies = structuredClone(chunks);
    const expected = await applyChunks(undefined, chunks);
    const { message } = await build(undefined, chunks);
    expect(message).toEqual(expected);
    expect(message?.parts.find((p) => p.type === 'text')).toMatchObject({
      text: 'Otters hold hands while they sleep. Really.',
      providerMetadata: { demo: { n: 1 } },
    });
    // The chunks are also the run's relayed events: merging must not change them.
    expect(chunks).toEqual(copies);
  });

  it('gives the same snapshot mid-delta, unaffected by deltas that arrive after it', async () => {
    const cut = chunks.findIndex((c) => c.type === 'text-delta') + 2;
    const expectedSnapshot = await applyChunks(undefined, chunks.slice(0, cut + 1));
    // Commits happen where steps end (no part is open across a commit).
    const stepEnd = chunks.findIndex((c) => c.type === 'finish-step');
    const { message, peeked } = await build(undefined, chunks, { peekAt: cut, commitAt: stepEnd });
    expect(peeked).toEqual(expectedSnapshot);
    expect(message).toEqual(await applyChunks(undefined, chunks));
  });

  it('continues a stored message (a continuation after tool outputs)', async () => {
    const base = (await applyChunks(undefined, chunks.slice(0, chunks.findIndex((c) => c.type === 'finish-step') + 1)))!;
    const rest = [{ type: 'start', messageId: 'msg_1' } as BatonUIMessageChunk, ...chunks.slice(chunks.findIndex((c) => c.type === 'finish-step') + 1)];
    expect((await build(base, rest)).message).toEqual(await applyChunks(base, rest));
  });

  it('folds like the per-chunk reader, without changing the base, also past a chunk it cannot apply', async () => {
    expect(await applyChunks(undefined, chunks)).toEqual(await perChunk(undefined, chunks));
    const stepEnd = chunks.findIndex((c) => c.type === 'finish-step') + 1;
    const base = (await applyChunks(undefined, chunks.slice(0, stepEnd)))!;
    const kept = structuredClone(base);
    const rest = [{ type: 'start', messageId: 'msg_1' } as BatonUIMessageChunk, ...chunks.slice(stepEnd)];
    expect(await applyChunks(base, rest)).toEqual(await perChunk(base, rest));
    expect(base).toEqual(kept);
    // A delta whose part never started: what came before it is kept, as the browser keeps it.
    const broken = [...chunks.slice(0, stepEnd), { type: 'text-delta', id: 'nope', delta: 'x' } as BatonUIMessageChunk, ...chunks.slice(stepEnd)];
    const folded = await applyChunks(undefined, broken);
    expect(folded).toEqual(await perChunk(undefined, broken));
    expect(folded?.parts.length).toBe(base.parts.length);
  });

  it('folds a step of 1,000 tool calls into 1,000 parts', async () => {
    const calls = Array.from({ length: 1_000 }, (_, i): BatonUIMessageChunk[] => [
      { type: 'tool-input-available', toolCallId: `c${i}`, toolName: 'currentTime', input: {} },
      { type: 'tool-output-available', toolCallId: `c${i}`, output: { utc: 'now' } },
    ]).flat();
    const flood: BatonUIMessageChunk[] = [{ type: 'start', messageId: 'msg_f' }, { type: 'start-step' }, ...calls, { type: 'finish-step' }, { type: 'finish' }];
    const message = await applyChunks(undefined, flood);
    expect(message?.parts.filter((p) => p.type === 'tool-currentTime' && p.state === 'output-available')).toHaveLength(1_000);
  });
});
