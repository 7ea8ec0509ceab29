import { describe, expect, it } from 'vitest';
import { chatSearchQuerySchema, MAX_SEARCH_TERMS, searchTerms } from './index';

describe('chat search', () => {
  it('takes words of letters and digits, lower-cased and once each; anything else only separates them', () => {
    expect(searchTerms("Otters & rivers: 'otters' | !fish:* 🎉 Müller's 2024-05")).toEqual(['otters', 'rivers', 'fish', 'müller', 's', '2024', '05']);
    expect(searchTerms('🎉 … ---')).toEqual([]);
    expect(searchTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(MAX_SEARCH_TERMS);
  });

  it('refuses an empty, blank, huge or NUL query, and bounds the limit', () => {
    expect(chatSearchQuerySchema.parse({ q: '  otters ' })).toEqual({ q: 'otters', limit: 20 });
    for (const q of ['', '   ', 'x'.repeat(201), 'a\u0000b']) expect(chatSearchQuerySchema.safeParse({ q }).success, JSON.stringify(q)).toBe(false);
    expect(chatSearchQuerySchema.safeParse({ q: 'x', limit: '51' }).success).toBe(false);
    expect(chatSearchQuerySchema.parse({ q: 'x', limit: '5' }).limit).toBe(5);
  });
});
