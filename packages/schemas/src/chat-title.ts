/// <reference lib="es2024.string" />
// toWellFormed is native in Node 20 and every current browser; the ES2023 lib just does not declare it.

const TITLE_MAX_LENGTH = 80;
const UNTITLED = 'New chat';
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// The demo model's delegation command (and the one people copy from its notice): the
// title is the task, named for the sub-agent, not the command.
const DELEGATE_COMMAND = /^\/delegate\s+([^:]+?)\s*:\s*/i;
// Its marker for passing the message's files on (`[files]`, `[files: id, …]`) is not part of the task.
const FILES_MARKER = /\s*\[files(?::[^\]]*)?\]/gi;
const CODE_FENCE = /^(```|~~~)/;
// Escaped ASCII punctuation is parked in this private-use block while the markup is taken off.
const ESCAPED = 0xe000;

/**
 * Shared by the server, which stores the title, and the web app, which shows the same title
 * in the sidebar before the server's arrives.
 *
 * A chat's title from its first message (or a sub-agent's task, `label` being the
 * sub-agent's name): the first line that has words once markdown is taken off, on one
 * line, shortened to 80 UTF-16 units. It is cut between grapheme clusters: a cut inside
 * an emoji would leave half of it (a lone surrogate, or a ZWJ family missing members).
 */
export function titleFromText(text: string, label?: string): string {
  let raw = firstWordedLine(text);
  const command = label === undefined ? DELEGATE_COMMAND.exec(raw) : null;
  if (command) {
    label = command[1];
    raw = raw.slice(command[0].length).replace(FILES_MARKER, '');
  }
  const line = plainLine(raw);
  const name = label === undefined ? '' : plainLine(label);
  return shorten(name && line ? `${name}: ${line}` : line || name) || UNTITLED;
}

/** The first line that is more than markdown, as written (trimmed). */
function firstWordedLine(text: string): string {
  for (const raw of text.split(/\r\n|\r|\n/)) {
    if (CODE_FENCE.test(raw.trim())) continue;
    if (plainLine(raw)) return raw.trim();
  }
  return '';
}

/** One line of markdown as the words a reader sees. */
function plainLine(raw: string): string {
  return (
    raw
      .toWellFormed()
      // Control characters (NUL included) have no place in a one-line title; U+FFFD neither.
      .replace(/[\p{Cc}\ufffd]/gu, ' ')
      .trim()
      // Block markers at the start: blockquotes, headings, list items, task boxes.
      .replace(/^(>\s*)+/, '')
      .replace(/^#{1,6}(\s+|$)/, '')
      .replace(/\s+#+$/, '')
      .replace(/^([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '')
      // A thematic break (---, ***) is no title.
      .replace(/^([-*_]\s*){3,}$/, '')
      // Backslash escapes show the character itself and are no markup: set aside until the end.
      .replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => String.fromCharCode(ESCAPED + c.charCodeAt(0)))
      // Images and links keep their text; an autolink keeps its address.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/<((?:https?:\/\/|mailto:)[^>\s]+)>/g, '$1')
      // Code spans keep their content.
      .replace(/(`+)\s?(.+?)\s?\1/g, '$2')
      // Emphasis and strikethrough; `_` only at word edges, so snake_case stays whole.
      .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/\*(?=\S)(.+?)(?<=\S)\*/g, '$1')
      .replace(/(^|[^\p{L}\p{N}_])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}_])/gu, '$1$2')
      .replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - ESCAPED))
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function shorten(line: string): string {
  if (line.length <= TITLE_MAX_LENGTH) return line;
  let end = 0;
  for (const { segment } of graphemes.segment(line)) {
    if (end + segment.length > TITLE_MAX_LENGTH - 1) break;
    end += segment.length;
  }
  return `${line.slice(0, end).trimEnd()}…`;
}
