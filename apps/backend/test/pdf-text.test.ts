import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { cachedPdfText, extractPdfText, pdfTextForModel } from '../src/services/pdf-text';
import { FILES } from './support/files';

// PDF text extraction (issue 20: providers that take no PDF files get the text): real PDFs
// made here with pdf-lib, read by PDF.js (unpdf) in its worker thread.
async function textPdf(pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return doc.save();
}

/** A "scan": a page that is only a picture (a 1×1 PNG stretched over it), no text layer. */
async function scannedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(FILES.png);
  doc.addPage().drawImage(image, { x: 0, y: 0, width: 600, height: 800 });
  return doc.save();
}

/** The longest time the event loop was held while `work` ran, measured by a 5 ms timer. */
async function longestLoopStall(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe('PDF text extraction', () => {
  it('reads the text of every page, in order, with the page count', async () => {
    const result = await extractPdfText(await textPdf(['Quarterly revenue grew by four percent', 'Otters hold hands while they sleep']));
    expect(result).toEqual({
      kind: 'text',
      pages: 2,
      text: 'Quarterly revenue grew by four percent\n\nOtters hold hands while they sleep',
      totalChars: 74,
    });
    expect(pdfTextForModel(result)).toBe(
      '[Text extracted from a PDF of 2 pages]\nQuarterly revenue grew by four percent\n\nOtters hold hands while they sleep',
    );
  });

  it('cuts long text with a [truncated …] line saying how much there was', async () => {
    const result = await extractPdfText(await textPdf(['a'.repeat(60), 'b'.repeat(60)]), { maxChars: 100 });
    expect(result).toMatchObject({ kind: 'text', pages: 2, totalChars: 122 });
    if (result.kind !== 'text') throw new Error('no text');
    expect(result.text).toBe(`${'a'.repeat(60)}\n\n${'b'.repeat(38)}`);
    expect(pdfTextForModel(result, 100)).toMatch(/\n\[truncated: the PDF has 122 characters of text, only the first 100 are shown\]$/);
  });

  it('says a scanned PDF has no text layer instead of giving nothing', async () => {
    const result = await extractPdfText(await scannedPdf());
    expect(result).toEqual({ kind: 'no-text', pages: 1 });
    expect(pdfTextForModel(result)).toContain('has no text layer — probably scanned pages');
  });

  it('says when a PDF cannot be read, and when it takes too long', async () => {
    const broken = await extractPdfText(FILES.pdf);
    expect(broken).toEqual({ kind: 'unreadable', reason: expect.stringMatching(/Invalid PDF/) });
    expect(pdfTextForModel(broken)).toMatch(/^\[The text of this PDF could not be extracted: /);
    expect(await extractPdfText(await textPdf(['slow']), { timeoutMs: 1 })).toEqual({
      kind: 'unreadable',
      reason: 'its text took longer than 0.001 s to extract',
    });
  });

  it('leaves the caller’s bytes as they were', async () => {
    const bytes = await textPdf(['kept']);
    const copy = Uint8Array.from(bytes);
    await extractPdfText(bytes);
    expect(bytes).toEqual(copy);
  });

  it('keeps a file’s text per process: the second read needs no worker', async () => {
    const bytes = await textPdf(['cached once']);
    const first = await cachedPdfText('file_cache_test', bytes);
    const started = performance.now();
    // Other bytes under the same id: the text kept for the id is what comes back.
    const again = await cachedPdfText('file_cache_test', await textPdf(['something else']));
    expect(performance.now() - started).toBeLessThan(50);
    expect(again).toBe(first);
    expect(again).toMatchObject({ kind: 'text', text: 'cached once' });
  });

  it('does not hold the event loop while a PDF of 200 pages is read (issue 18: no turn over ~50 ms)', async () => {
    const pages = Array.from({ length: 200 }, (_, i) => `Page ${i + 1}: ${'the otters of the river keep their tools in a pouch '.repeat(2)}`);
    const bytes = await textPdf(pages);
    let result: Awaited<ReturnType<typeof extractPdfText>> | undefined;
    const stall = await longestLoopStall(async () => {
      result = await extractPdfText(bytes);
    });
    expect(result).toMatchObject({ kind: 'text', pages: 200 });
    expect(stall).toBeLessThan(50);
  });
});
