import { Worker } from 'node:worker_threads';

/** A PDF gives the model at most this many characters of its text (like a text file); the rest is cut, and the model is told. */
export const MAX_PDF_TEXT_CHARS = 100_000;
/** A PDF whose text takes longer than this to extract is given up on (for this turn: the next one tries again). */
export const PDF_TEXT_TIMEOUT_MS = 30_000;
/** Workers at once per process: each holds a parsed PDF in memory (up to `WORKER_HEAP_MB`). */
const MAX_WORKERS = 2;
const WORKER_HEAP_MB = 512;
/** Extracted texts kept per process (at most `MAX_PDF_TEXT_CHARS` each), by file id: a file's bytes never change. */
const CACHE_ENTRIES = 100;

/** What a PDF's text layer gave. */
export type PdfText =
  /** `text` holds at most the `maxChars` first characters of `totalChars`. */
  | { kind: 'text'; pages: number; text: string; totalChars: number }
  /** Pages without text: a scan (images of pages) or drawings only. */
  | { kind: 'no-text'; pages: number }
  /** Not a PDF PDF.js can read (damaged, encrypted), or it took too long. */
  | { kind: 'unreadable'; reason: string };

type WorkerAnswer = { pages: number; text: string; totalChars: number } | { error: string };

let running = 0;
const waiting: Array<() => void> = [];
async function withWorkerSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * The text of a PDF, extracted by PDF.js (through `unpdf`) in a worker thread, so the event
 * loop is never held by the parse, however large or hostile the file; the worker's heap is
 * capped and it is ended after `timeoutMs`.
 */
export function extractPdfText(bytes: Uint8Array, options: { maxChars?: number; timeoutMs?: number } = {}): Promise<PdfText> {
  const maxChars = options.maxChars ?? MAX_PDF_TEXT_CHARS;
  const timeoutMs = options.timeoutMs ?? PDF_TEXT_TIMEOUT_MS;
  return withWorkerSlot(
    () =>
      new Promise<PdfText>((resolve) => {
        // workerData is copied into the worker: the caller's bytes stay as they are.
        const worker = new Worker(new URL('./pdf-text-worker.mjs', import.meta.url), {
          workerData: { bytes, maxChars },
          resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        });
        let settled = false;
        const settle = (result: PdfText) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          resolve(result);
        };
        const timer = setTimeout(() => settle({ kind: 'unreadable', reason: `its text took longer than ${timeoutMs / 1000} s to extract` }), timeoutMs);
        worker.once('message', (answer: WorkerAnswer) => {
          if ('error' in answer) settle({ kind: 'unreadable', reason: answer.error });
          else if (answer.text.trim() === '') settle({ kind: 'no-text', pages: answer.pages });
          else settle({ kind: 'text', ...answer });
        });
        // Out of memory (ERR_WORKER_OUT_OF_MEMORY), or the worker failing to load.
        worker.once('error', (err) => settle({ kind: 'unreadable', reason: err.message }));
        worker.once('exit', (code) => settle({ kind: 'unreadable', reason: `the extraction stopped (exit code ${code})` }));
      }),
  );
}

const cache = new Map<string, Promise<PdfText>>();

/**
 * `extractPdfText` of a stored file, once per process: later turns (and sub-agents given the
 * file) reuse the text. A timeout is not kept, so the next turn tries again.
 */
export function cachedPdfText(fileId: string, bytes: Uint8Array): Promise<PdfText> {
  const known = cache.get(fileId);
  if (known) {
    // Most recently used last: the oldest entry is the one dropped.
    cache.delete(fileId);
    cache.set(fileId, known);
    return known;
  }
  const pending = extractPdfText(bytes).then((result) => {
    if (result.kind === 'unreadable' && result.reason.includes('took longer')) cache.delete(fileId);
    return result;
  });
  cache.set(fileId, pending);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return pending;
}

/** The first line of a PDF's text as the model gets it: what it is, so the model (and the demo model) can tell it from a text file. */
export const PDF_TEXT_MARKER = '[Text extracted from a PDF';

/**
 * What the model reads of a PDF when its provider is not sent PDF files: the text with its
 * page count, cut at `maxChars` with a `[truncated …]` line; for a PDF without a text layer
 * or one that cannot be read, a note that says so and what can be done.
 */
export function pdfTextForModel(result: PdfText, maxChars = MAX_PDF_TEXT_CHARS): string {
  switch (result.kind) {
    case 'text': {
      const pages = result.pages === 1 ? '1 page' : `${result.pages} pages`;
      const cut =
        result.totalChars > result.text.length
          ? `\n[truncated: the PDF has ${result.totalChars.toLocaleString('en-US')} characters of text, only the first ${maxChars.toLocaleString('en-US')} are shown]`
          : '';
      return `${PDF_TEXT_MARKER} of ${pages}]\n${result.text}${cut}`;
    }
    case 'no-text':
      return `[This PDF (${result.pages === 1 ? '1 page' : `${result.pages} pages`}) has no text layer — probably scanned pages — so no text could be read from it. Say so; the person can send a text version, or use a provider that takes PDF files.]`;
    case 'unreadable':
      return `[The text of this PDF could not be extracted: ${result.reason}]`;
  }
}
