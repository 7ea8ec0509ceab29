import type { BatonUIMessageChunk } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { StorableChunks } from './storable-chunks';

const delta = (d: string, id = 't1'): BatonUIMessageChunk => ({ type: 'text-delta', id, delta: d });
const text = (chunks: BatonUIMessageChunk[]) => chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');

describe('StorableChunks', () => {
  it('passes clean chunks through untouched (same objects)', () => {
    const clean = new StorableChunks();
    const chunk = delta('hello 🦦');
    expect(clean.clean(chunk)).toEqual([chunk]);
    expect(clean.clean(chunk)[0]).toBe(chunk);
  });

  it('replaces NUL and lone surrogates with U+FFFD', () => {
    const clean = new StorableChunks();
    expect(text(clean.clean(delta('a\u0000b')))).toBe('a\uFFFDb');
    expect(text(clean.clean(delta('x\udc00y')))).toBe('x\uFFFDy');
  });

  it('rejoins a surrogate pair split across two deltas', () => {
    const clean = new StorableChunks();
    const [high, low] = ['🦦'.charAt(0), '🦦'.charAt(1)];
    const out = [...clean.clean(delta(`otter ${high}`)), ...clean.clean(delta(`${low}!`))];
    expect(text(out)).toBe('otter 🦦!');
  });

  it('a high surrogate left at the end of a text becomes U+FFFD before its end', () => {
    const clean = new StorableChunks();
    const out = [...clean.clean(delta('cut \ud83d')), ...clean.clean({ type: 'text-end', id: 't1' })];
    expect(text(out)).toBe('cut \uFFFD');
    expect(out.at(-1)).toEqual({ type: 'text-end', id: 't1' });
  });

  it('cleans strings inside other chunks, like tool inputs', () => {
    const clean = new StorableChunks();
    const [out] = clean.clean({ type: 'tool-input-available', toolCallId: 'c', toolName: 'x', input: { q: 'a\u0000' } });
    expect(out).toMatchObject({ input: { q: 'a\uFFFD' } });
  });
});
