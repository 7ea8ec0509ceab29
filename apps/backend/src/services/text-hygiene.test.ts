import { describe, expect, it } from 'vitest';
import { sanitizeDeep, sanitizeText } from './text-hygiene';

const REPLACEMENT = '\uFFFD';

describe('sanitizeText', () => {
  it('keeps valid surrogate pairs and returns clean text as it is', () => {
    const text = 'otters 🦦 and a family 👨‍👩‍👧 — ünïcödé 中文';
    expect(sanitizeText(text)).toBe(text);
    expect(sanitizeText('')).toBe('');
  });

  it('replaces NUL and lone high or low surrogates, one U+FFFD each', () => {
    expect(sanitizeText('a\u0000b')).toBe(`a${REPLACEMENT}b`);
    expect(sanitizeText('cut 😀'.slice(0, -1))).toBe(`cut ${REPLACEMENT}`);
    expect(sanitizeText('\udc00 tail')).toBe(`${REPLACEMENT} tail`);
    expect(sanitizeText('\ude00\ud83d')).toBe(REPLACEMENT + REPLACEMENT);
    expect(sanitizeText('\u0000😀\ud800')).toBe(`${REPLACEMENT}😀${REPLACEMENT}`);
  });
});

describe('sanitizeDeep', () => {
  it('returns the same reference when nothing needs replacing', () => {
    const parts = [
      { type: 'text', text: 'fine 😀' },
      { type: 'tool-x', input: { a: [1, 'two', null, true] }, output: { nested: { deep: 'ok' } } },
    ];
    expect(sanitizeDeep(parts)).toBe(parts);
    const date = new Date();
    expect(sanitizeDeep(date)).toBe(date);
    expect(sanitizeDeep(null)).toBe(null);
    expect(sanitizeDeep(42)).toBe(42);
  });

  it('copies only what leads to a replaced string, leaving the input untouched', () => {
    const clean = { type: 'text', text: 'clean' };
    const dirty = { type: 'tool-x', input: { list: ['ok', 'bad\u0000'] }, output: { untouched: { x: 1 } } };
    const parts: Record<string, unknown>[] = [clean, dirty];
    const result = sanitizeDeep(parts);
    expect(result).not.toBe(parts);
    expect(result[0]).toBe(clean);
    expect(result[1]).toEqual({ type: 'tool-x', input: { list: ['ok', `bad${REPLACEMENT}`] }, output: { untouched: { x: 1 } } });
    expect(result[1]!.output).toBe(dirty.output);
    expect(dirty.input.list[1]).toBe('bad\u0000');
  });

  it('cleans object keys too', () => {
    expect(sanitizeDeep({ 'k\u0000': 'v', ok: '\ud800' })).toEqual({ [`k${REPLACEMENT}`]: 'v', ok: REPLACEMENT });
  });
});
