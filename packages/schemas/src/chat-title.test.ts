import { describe, expect, it } from 'vitest';
import { titleFromText } from './chat-title';

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

  it('takes markdown off: headings, emphasis, code ticks, links, quotes, list markers', () => {
    expect(titleFromText('# Plan for **Q3** launch\nbody')).toBe('Plan for Q3 launch');
    expect(titleFromText('## Closed heading ##')).toBe('Closed heading');
    expect(titleFromText('Why does `npm ci` fail with _EACCES_ in ~~CI~~ *here*?')).toBe('Why does npm ci fail with EACCES in CI here?');
    expect(titleFromText('Read [the guide](https://example.com/g) and ![a chart](c.png) <https://x.dev>')).toBe('Read the guide and a chart https://x.dev');
    expect(titleFromText('> - [ ] 1. quoted task')).toBe('1. quoted task');
    expect(titleFromText('2) numbered')).toBe('numbered');
    expect(titleFromText('snake_case_name and 2 * 3 * 4 stay, \\*escaped\\* shows')).toBe('snake_case_name and 2 * 3 * 4 stay, *escaped* shows');
  });

  it('skips lines that are only markdown: fences, rules, empty headings', () => {
    expect(titleFromText('```ts\nconst x = 1;\n```')).toBe('const x = 1;');
    expect(titleFromText('#\n---\n\n**Real** title')).toBe('Real title');
    expect(titleFromText('# \n> \n')).toBe('New chat');
  });

  it('titles a /delegate command by its task, named for the sub-agent', () => {
    expect(titleFromText('/delegate Researcher: find three facts about otters')).toBe('Researcher: find three facts about otters');
    expect(titleFromText('/DELEGATE  **Critic** :  review `x`\nmore')).toBe('Critic: review x');
    expect(titleFromText('/delegate Researcher:')).toBe('Researcher');
    // The demo model's marker for passing files on is not part of the task.
    expect(titleFromText('/delegate Researcher: summarise the notes [files]')).toBe('Researcher: summarise the notes');
    expect(titleFromText('/delegate Researcher: compare [files: file_a, file_b] them')).toBe('Researcher: compare them');
    // Only the command: a path or another slash word is kept as written.
    expect(titleFromText('/usr/bin/env: not found')).toBe('/usr/bin/env: not found');
  });

  it("names a sub-agent's task for the sub-agent, markdown off", () => {
    expect(titleFromText('# Find facts\nabout otters', 'Researcher')).toBe('Researcher: Find facts');
    expect(titleFromText('/delegate Other: x', 'Researcher')).toBe('Researcher: /delegate Other: x');
    expect(titleFromText('  ', 'Researcher')).toBe('Researcher');
  });

  it('keeps NUL and other control characters out, and emoji in', () => {
    expect(titleFromText('a\u0000b\tc\u0007d')).toBe('a b c d');
    expect(titleFromText('\u0000\n\u0000')).toBe('New chat');
    expect(titleFromText('half \ud83e pair')).toBe('half pair');
    expect(titleFromText('# 🦦 **Otters** 👨‍👩‍👧‍👦')).toBe('🦦 Otters 👨‍👩‍👧‍👦');
    expect(titleFromText('\u0000', 'Re\u0000searcher')).toBe('Re searcher');
  });

  it('measures the 80-character limit after markdown is off, with no space before the ellipsis', () => {
    expect(titleFromText(`# **${'x'.repeat(80)}**`)).toBe('x'.repeat(80));
    expect(titleFromText(`${'a'.repeat(78)} bcd`)).toBe(`${'a'.repeat(78)}…`);
  });
});
