// What the demo model says about the files of a message (README, "The script", rule 7):
// enough to try attaching files offline and see what reached the model.
import type { ChatMessage } from './wire';

/** A text part that is a text file as Baton sends it: `File <name>:` on the first line, its content after. */
const TEXT_FILE = /^File ([^\n]+):\n/;
const FIRST_WORDS = 8;
/** The first line of a PDF's text as Baton gives it to a provider that takes no PDF files (backend services/pdf-text.ts). */
const PDF_TEXT = /^\[Text extracted from a PDF of (\d+) pages?\]\n/;

export interface ReceivedFile {
  name: string;
  /** The media type the request gives (a `data:` URL's), `text` for a text file, `text of a PDF (<n> pages)` for a PDF's extracted text, `image (URL)` for a linked image. */
  type: string;
  /** Bytes (decoded from base64), or UTF-8 bytes of a text file's content; undefined for a linked image. */
  size?: number;
  /** A text file's first words. */
  firstWords?: string;
}

/** A content part of the OpenAI wire, as far as this file reads it (anything may be missing). */
interface ContentPart {
  type: string;
  text?: unknown;
  image_url?: { url?: unknown };
  file?: { filename?: unknown; file_data?: unknown };
}

/** The bytes a base64 `data:` URL carries, and its media type. */
function dataUrl(url: string): { mediaType: string; size: number } | undefined {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  const base64 = match[2]!.replace(/\s/g, '');
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return { mediaType: match[1] || 'application/octet-stream', size: Math.floor((base64.length * 3) / 4) - padding };
}

/** A text part of the message that is a text file, or undefined. */
export function textFileOf(text: string): { name: string; content: string } | undefined {
  const match = TEXT_FILE.exec(text);
  return match ? { name: match[1]!, content: text.slice(match[0].length) } : undefined;
}

/** The files of a message's content parts, in order: images (`image_url`), files (`file`), text files (`File <name>:` text parts). */
export function receivedFiles(message: ChatMessage | undefined): ReceivedFile[] {
  const content = message?.content;
  if (!Array.isArray(content)) return [];
  const files: ReceivedFile[] = [];
  // Images come without a name: they are numbered.
  let images = 0;
  for (const part of content as ContentPart[]) {
    if (part.type === 'image_url') {
      images += 1;
      const url = typeof part.image_url?.url === 'string' ? part.image_url.url : '';
      const data = dataUrl(url);
      files.push(data ? { name: `image ${images}`, type: data.mediaType, size: data.size } : { name: url || `image ${images}`, type: 'image (URL)' });
    } else if (part.type === 'file') {
      const data = dataUrl(typeof part.file?.file_data === 'string' ? part.file.file_data : '');
      files.push({ name: typeof part.file?.filename === 'string' ? part.file.filename : 'a file', type: data?.mediaType ?? 'file', size: data?.size });
    } else if (part.type === 'text' && typeof part.text === 'string') {
      const text = textFileOf(part.text);
      if (!text) continue;
      const pdf = PDF_TEXT.exec(text.content);
      const content = pdf ? text.content.slice(pdf[0].length) : text.content;
      const words = content.split(/\s+/).filter(Boolean);
      const first = words.slice(0, FIRST_WORDS).join(' ') + (words.length > FIRST_WORDS ? ' …' : '');
      const type = pdf ? `text of a PDF (${pdf[1] === '1' ? '1 page' : `${pdf[1]} pages`})` : 'text';
      files.push({ name: text.name, type, size: new TextEncoder().encode(content).length, firstWords: first });
    }
  }
  return files;
}

const sizeText = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`);

/** `I received 2 files:` and a line per file (name, type, size; a text file's first words). */
export function describeReceivedFiles(files: ReceivedFile[]): string[] {
  if (files.length === 0) return [];
  return [
    `I received ${files.length === 1 ? '1 file' : `${files.length} files`}:`,
    ...files.map((f) => {
      const size = f.size === undefined ? '' : `, ${sizeText(f.size)}`;
      const words = f.firstWords === undefined ? '' : ` — "${f.firstWords}"`;
      return `- ${f.name}: ${f.type}${size}${words}`;
    }),
    '',
  ];
}
