import { describe, expect, it } from 'vitest';
import { titleFromText } from './chats';

describe('titleFromText', () => {
  it('uses the first line, or "New chat" when there is none', () => {
    expect(titleFromText('  Otters?\nmore detail')).toBe('Otters?');
    expect(titleFromText(' \n ')).toBe('New chat');
    expect(titleFromText('x'.repeat(80))).toBe('x'.repeat(80));
  });

  it('shortens a long line to 80 characters, ellipsis included', () => {
    expect(titleFromText('x'.repeat(200))).toBe(`${'x'.repeat(79)}…`);
  });

  it('never cuts an emoji that straddles the limit in half', () => {
    expect(titleFromText(`${'a'.repeat(78)}😀 tail`)).toBe(`${'a'.repeat(78)}…`);
    expect(titleFromText(`${'a'.repeat(77)}😀 tail`)).toBe(`${'a'.repeat(77)}😀…`);
  });

  it('keeps or drops a grapheme cluster whole: ZWJ family, flag, combining accent', () => {
    const family = '👨‍👩‍👧‍👦';
    expect(titleFromText(`${'a'.repeat(75)}${family} and more`)).toBe(`${'a'.repeat(75)}…`);
    expect(titleFromText(`${'a'.repeat(60)}${family} and more words here`)).toBe(`${'a'.repeat(60)}${family} and mor…`);
    expect(titleFromText(`${'a'.repeat(77)}🇫🇷 tail`)).toBe(`${'a'.repeat(77)}…`);
    expect(titleFromText(`${'a'.repeat(78)}e\u0301 tail`)).toBe(`${'a'.repeat(78)}…`);
  });
});
