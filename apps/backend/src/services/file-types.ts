/// <reference lib="es2024.string" />
import { cutText, type FileMediaType } from '@baton/schemas';
import { fileTypeFromBuffer } from 'file-type';

/** Binary types told by their bytes (file-type's signatures); everything else accepted is text. */
const BINARY_TYPES: readonly FileMediaType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'];

export type SniffedType = { mediaType: FileMediaType } | { refused: string };

/**
 * What a file is, from its bytes: an image or PDF by its signature, else text when it is
 * UTF-8 without control characters. A text file's kind among the text types comes from its
 * name (Markdown, CSV, JSON when it parses), everything else text is `text/plain` — HTML and
 * SVG included, so Baton never serves a document it could run as one. `refused` names what
 * the bytes are, for the error.
 */
export async function sniffFileType(bytes: Uint8Array, name: string): Promise<SniffedType> {
  const detected = await fileTypeFromBuffer(bytes);
  const binary = BINARY_TYPES.find((t) => t === detected?.mime);
  if (binary) return { mediaType: binary };
  // file-type also recognises a few text formats (XML): text stays text.
  const text = decodeText(bytes);
  if (text !== undefined) return { mediaType: textType(name, text) };
  return { refused: detected?.mime ?? 'binary data of an unknown type' };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// C0 controls other than tab, line feed, vertical tab, form feed, carriage return and escape (logs keep ANSI colours), and DEL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const binaryControls = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/;

function decodeText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
  return binaryControls.test(text) ? undefined : text;
}

function textType(name: string, text: string): FileMediaType {
  const ext = name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === 'md' || ext === 'markdown') return 'text/markdown';
  if (ext === 'csv') return 'text/csv';
  if (ext === 'json') {
    try {
      JSON.parse(text);
      return 'application/json';
    } catch {
      return 'text/plain';
    }
  }
  return 'text/plain';
}

// Path separators, control characters (NUL included) and the bidirectional overrides that
// make "gpj.exe" read as "exe.jpg".
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const unsafeInName = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The name a file is stored and served under: no directories, nothing invisible, at most 255 characters (emoji kept whole). */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = cutText(base.toWellFormed().replace(unsafeInName, '').trim(), 255).trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}
