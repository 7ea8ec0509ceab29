// The PDF text extraction of services/pdf-text.ts, in a worker thread of its own: PDF.js
// parses on the thread that calls it, and a large or hostile PDF would hold the event loop
// (every chat of the process) for seconds. Plain JavaScript, so it loads the same way under
// tsx, Vitest and plain Node. It answers one message: `{ bytes }` → `{ pages, text }` with
// the pages' text joined (at most `maxChars` characters kept, `totalChars` counted) or
// `{ error }`.
import { parentPort, workerData } from 'node:worker_threads';
import { extractText, getDocumentProxy } from 'unpdf';

const { bytes, maxChars } = workerData;
try {
  // No eval (PDF.js compiles fonts with it otherwise), no font loading, no warnings on stdout: only the text is wanted.
  const pdf = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, verbosity: 0 });
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  let kept = '';
  let totalChars = 0;
  for (const [i, page] of text.entries()) {
    const piece = (i === 0 ? '' : '\n\n') + page.trim();
    totalChars += piece.length;
    if (kept.length < maxChars) kept += piece.slice(0, maxChars - kept.length);
  }
  // The thread ends with this answer: nothing to clean up.
  parentPort.postMessage({ pages: totalPages, text: kept, totalChars });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
}
