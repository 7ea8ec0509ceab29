import { describe, expect, it } from 'vitest';
import { readHeadline } from './chat-search';

describe('readHeadline', () => {
  it('turns the markers into ranges of the plain, one-line snippet', () => {
    const { snippet, highlights } = readHeadline('the \uE000otters\uE001 of the\n\n \uE000river\uE001 ');
    expect(snippet).toBe('the otters of the river');
    expect(highlights.map((h) => snippet.slice(h.start, h.end))).toEqual(['otters', 'river']);
  });

  it('keeps emoji whole and ignores unbalanced or empty markers', () => {
    const { snippet, highlights } = readHeadline('🎉 \uE000party\uE001 \uE000\uE001 time\uE001');
    expect(snippet).toBe('🎉 party  time');
    expect(highlights).toEqual([{ start: 3, end: 8 }]);
  });
});
