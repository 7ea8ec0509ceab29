import { startProviderSimulator, type ProviderSimulator } from '@baton/provider-sim';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NodeChat } from './support/chat-client';
import { consoleDuring } from './support/console-capture';
import { FILES, upload } from './support/files';
import { json, useTestApp } from './support/test-app';

// Issue 20: PDFs reach a model as a file where its provider takes one (the provider's
// `pdfInput`; `auto` = OpenAI's own API only), else as their extracted text. Through the real
// HTTP server, the AI SDK's chat client, and the provider simulator (speaking the demo
// model's script, which says what it received).
const t = useTestApp({ allowPrivateUrls: true });
const W = '/api/workspaces/default';
const READS_FILES = 'sim-reads-files';
const REFUSES_FILES = 'sim-refuses-files';

let sim: ProviderSimulator;
beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 1, models: { [READS_FILES]: {}, [REFUSES_FILES]: { refuseFiles: 'vllm' } } });
});
afterAll(() => sim?.close());

async function reportPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText('Quarterly revenue grew by four percent', { x: 50, y: 700, font, size: 12 });
  doc.addPage().drawText('Otters hold hands while they sleep', { x: 50, y: 700, font, size: 12 });
  return doc.save();
}

async function scannedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawImage(await doc.embedPng(FILES.png), { x: 0, y: 0, width: 600, height: 800 });
  return doc.save();
}

const createProvider = async (body: Record<string, unknown>) => {
  const res = await t.request(`${W}/providers`, { json: { name: `Local ${Math.random()}`, baseUrl: sim.baseURL, apiKey: null, ...body } });
  expect(res.status).toBe(201);
  return json(res);
};

let n = 0;
/** Sends `text` and the PDF as a new chat of an agent on the provider, with the AI SDK's chat client; the answer's text and the model requests it caused. */
async function askWithPdf(provider: { id: string }, modelId: string, pdf: Uint8Array, name = 'report.pdf') {
  n += 1;
  const agent = await json(await t.request(`${W}/agents`, { json: { name: `PDF reader ${n}`, providerId: provider.id, modelId } }));
  const stored = await json(await upload(t, name, pdf, { type: 'application/pdf' }));
  const chat = new NodeChat({ id: `chat-pdf-${n}`, baseUrl: t.baseUrl, body: { agentId: agent.id } });
  const before = sim.requests.length;
  await chat.sendMessage({ text: 'What is in this?', files: [{ type: 'file', mediaType: 'application/pdf', filename: name, url: stored.url }] });
  await chat.settled();
  expect(chat.error).toBeUndefined();
  const answer = chat.messages
    .at(-1)!
    .parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('');
  // biome-ignore lint/suspicious/noExplicitAny: the wire's content parts, read loosely by the assertions
  const userContents = sim.requests.slice(before).map((r) => r.messages.filter((m) => m.role === 'user').at(-1)!.content as any[]);
  return { answer, userContents };
}

describe('the pdfInput setting of a provider', () => {
  it('is auto unless given, can be set and changed, and refuses anything else', async () => {
    const plain = await createProvider({});
    expect(plain.pdfInput).toBe('auto');
    const files = await createProvider({ pdfInput: 'file' });
    expect(files.pdfInput).toBe('file');
    const changed = await t.request(`${W}/providers/${files.id}`, { method: 'PATCH', json: { pdfInput: 'text' } });
    expect(changed.status).toBe(200);
    expect((await json(changed)).pdfInput).toBe('text');
    expect((await json(await t.request(`${W}/providers/${files.id}`))).pdfInput).toBe('text');
    const bad = await t.request(`${W}/providers/${files.id}`, { method: 'PATCH', json: { pdfInput: 'pdf' } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('invalid_request');
  });
});

describe('a PDF in a message', () => {
  it('reaches a provider that takes no PDF files (auto, not OpenAI) as its text, named like a text file', async () => {
    const provider = await createProvider({ modelIds: [READS_FILES] });
    const { answer, userContents } = await askWithPdf(provider, READS_FILES, await reportPdf());
    expect(userContents).toHaveLength(1);
    const content = userContents[0]!;
    expect(content.some((p) => p.type === 'file')).toBe(false);
    expect(content).toContainEqual({
      type: 'text',
      text: 'File report.pdf:\n[Text extracted from a PDF of 2 pages]\nQuarterly revenue grew by four percent\n\nOtters hold hands while they sleep',
    });
    expect(answer).toContain('I received 1 file:\n- report.pdf: text of a PDF (2 pages), 74 bytes — "Quarterly revenue grew by four percent Otters hold …"');
  });

  it('reaches a provider set to take PDFs as a file part with the bytes', async () => {
    const provider = await createProvider({ modelIds: [READS_FILES], pdfInput: 'file' });
    const pdf = await reportPdf();
    const { answer, userContents } = await askWithPdf(provider, READS_FILES, pdf);
    const filePart = userContents[0]!.find((p) => p.type === 'file');
    expect(filePart.file).toEqual({ filename: 'report.pdf', file_data: `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}` });
    expect(JSON.stringify(userContents[0])).not.toContain('Text extracted');
    expect(answer).toContain(`- report.pdf: application/pdf, ${(pdf.byteLength / 1024).toFixed(1)} KiB`);
  });

  it('gives a scanned PDF (no text layer) as a note saying so, not as nothing', async () => {
    const provider = await createProvider({ modelIds: [READS_FILES], pdfInput: 'text' });
    const { userContents } = await askWithPdf(provider, READS_FILES, await scannedPdf(), 'scan.pdf');
    const text = userContents[0]!.find((p) => p.type === 'text' && p.text.startsWith('File scan.pdf:'));
    expect(text.text).toMatch(/^File scan\.pdf:\n\[This PDF \(1 page\) has no text layer — probably scanned pages/);
  });

  it('is sent again as its text when a provider said to take PDFs answers the file part with 400', async () => {
    const provider = await createProvider({ modelIds: [REFUSES_FILES], pdfInput: 'file' });
    const logged = await consoleDuring(async () => {
      const { answer, userContents } = await askWithPdf(provider, REFUSES_FILES, await reportPdf());
      // The refused request, then the same one with the PDF's text in place of the file.
      expect(userContents).toHaveLength(2);
      expect(userContents[0]!.some((p) => p.type === 'file')).toBe(true);
      expect(userContents[1]!.some((p) => p.type === 'file')).toBe(false);
      expect(userContents[1]!.find((p) => p.type === 'text' && p.text.startsWith('File report.pdf:\n[Text extracted from a PDF of 2 pages]'))).toBeDefined();
      expect(answer).toContain('- report.pdf: text of a PDF (2 pages)');
    });
    vi.restoreAllMocks();
    expect(logged).toContain(`model ${REFUSES_FILES} refused a PDF file part (HTTP 400)`);
  });
});
