import { FILE_MEDIA_TYPES, type BatonFile } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import {
  acceptedTypesText,
  admitFiles,
  type Attachment,
  fileKindLabel,
  fileParts,
  fileSizeText,
  messageInput,
  pastedFiles,
  sendability,
  tooManyFilesText,
  uploadErrorText,
} from './attachments';

const stored = (name: string, mediaType: BatonFile['mediaType']): BatonFile => ({
  id: `file_${name}`,
  name,
  mediaType,
  size: 1234,
  createdAt: '2026-01-01T00:00:00.000Z',
  url: `/api/workspaces/default/files/file_${name}`,
});

const chip = (status: Attachment['status'], name = 'a.png', file?: BatonFile): Attachment => ({
  key: name,
  name,
  size: 10,
  mediaType: 'image/png',
  status,
  progress: status === 'ready' ? 1 : 0,
  file,
});

describe('what a chip says of a refused upload', () => {
  it('names the file and says the type cannot be attached, with the accepted types in words', () => {
    const err = new ApiError(
      415,
      'unsupported_media_type',
      "report.exe: this type of file can't be attached (application/x-msdownload). Accepted: image/png, … (text/plain: any UTF-8 text)",
      { accepted: FILE_MEDIA_TYPES },
    );
    expect(uploadErrorText('report.exe', err)).toBe(
      "report.exe: this type of file can't be attached. You can attach images (PNG, JPEG, GIF, WebP), PDFs and text files (Markdown, CSV, JSON, code).",
    );
    // An operator's narrower list is what is said.
    expect(uploadErrorText('a.gif', new ApiError(415, 'unsupported_media_type', '…', { accepted: ['image/png', 'application/pdf'] }))).toBe(
      "a.gif: this type of file can't be attached. You can attach images (PNG) and PDFs.",
    );
    expect(uploadErrorText('x.bin', new ApiError(415, 'unsupported_media_type', '…'))).toBe("x.bin: this type of file can't be attached.");
  });

  it('names the size limit of a file too large, without the operator variable', () => {
    const err = new ApiError(413, 'payload_too_large', 'a file may be at most 20 MiB (BATON_FILE_MAX_BYTES)', { maxBytes: 20 * 1024 * 1024 });
    expect(uploadErrorText('video.pdf', err)).toBe('video.pdf is too large: a file may be at most 20 MB.');
  });

  it("keeps the server's own words otherwise, once prefixed with the name", () => {
    expect(uploadErrorText('empty.txt', new ApiError(400, 'invalid_request', 'empty.txt: the file is empty'))).toBe('empty.txt: the file is empty');
    expect(uploadErrorText('a.png', new ApiError(503, 'unavailable', 'the file storage is unavailable'))).toBe('a.png: the file storage is unavailable');
    expect(uploadErrorText('a.png', new ApiError(0, 'network_error', 'the server could not be reached'))).toMatch(
      /^a\.png: the upload did not reach the server/,
    );
    expect(uploadErrorText('a.png', new Error('boom'))).toBe('a.png: the upload failed (boom)');
  });

  it('lists the accepted types as a sentence', () => {
    expect(acceptedTypesText(['application/pdf'])).toBe('PDFs');
    expect(acceptedTypesText(['text/csv', 'application/json'])).toBe('CSV, JSON');
    expect(acceptedTypesText([])).toBe('');
  });
});

describe('the count limit', () => {
  it('admits files up to the limit; refused chips do not count', () => {
    const current = [chip('ready'), chip('uploading'), chip('failed')];
    expect(admitFiles(current, ['x', 'y', 'z'], 4)).toEqual({ admitted: ['x', 'y'], overLimit: ['z'] });
    expect(admitFiles([], ['x'], 10)).toEqual({ admitted: ['x'], overLimit: [] });
    expect(admitFiles([chip('ready'), chip('ready')], ['x'], 2)).toEqual({ admitted: [], overLimit: ['x'] });
    expect(tooManyFilesText('x.png', 10)).toBe('x.png: a message can carry at most 10 files.');
  });
});

describe('sending', () => {
  it('waits for uploads, then for refused chips to be removed; files alone may be sent', () => {
    expect(sendability('', [])).toEqual({ canSend: false });
    expect(sendability('hi', [])).toEqual({ canSend: true });
    expect(sendability('hi', [chip('uploading'), chip('uploading', 'b')])).toEqual({ canSend: false, reason: 'Uploading 2 files…' });
    expect(sendability('hi', [chip('uploading')]).reason).toBe('Uploading a file…');
    expect(sendability('hi', [chip('failed')])).toEqual({ canSend: false, reason: "Remove the files that couldn't be attached to send." });
    expect(sendability('  ', [chip('ready', 'a.png', stored('a.png', 'image/png'))])).toEqual({ canSend: true });
  });

  it('sends the uploads as AI SDK file parts with the stored type, name and URL, in order', () => {
    const pdf = stored('r.pdf', 'application/pdf');
    const png = stored('s.png', 'image/png');
    const parts = fileParts([chip('ready', 'r.pdf', pdf), chip('failed', 'x.exe'), chip('ready', 's.png', png)]);
    expect(parts).toEqual([
      { type: 'file', mediaType: 'application/pdf', filename: 'r.pdf', url: pdf.url },
      { type: 'file', mediaType: 'image/png', filename: 's.png', url: png.url },
    ]);
    expect(messageInput('hello', [])).toEqual({ text: 'hello' });
    expect(messageInput('hello', parts)).toEqual({ text: 'hello', files: parts });
    // No empty text part in a message of files only.
    expect(messageInput('', parts)).toEqual({ files: parts });
  });
});

describe('sizes and kinds', () => {
  it('writes sizes as file managers do', () => {
    expect(fileSizeText(1)).toBe('1 byte');
    expect(fileSizeText(900)).toBe('900 bytes');
    expect(fileSizeText(1536)).toBe('1.5 KB');
    expect(fileSizeText(300 * 1024)).toBe('300 KB');
    expect(fileSizeText(20 * 1024 * 1024)).toBe('20 MB');
    expect(fileSizeText(2.44 * 1024 * 1024)).toBe('2.4 MB');
  });

  it('names a type, or an unknown one by its extension', () => {
    expect(fileKindLabel('application/pdf')).toBe('PDF');
    expect(fileKindLabel('image/png')).toBe('PNG image');
    expect(fileKindLabel('application/zip', 'a.zip')).toBe('ZIP');
    expect(fileKindLabel('', 'noextension')).toBe('File');
  });
});

/** A stand-in for the paste event's DataTransfer (vitest runs without a DOM). */
function clipboard(files: { name: string; type: string }[], strings: Record<string, string> = {}): DataTransfer {
  const list = files.map((f) => ({ ...f, size: 1 }) as unknown as File);
  return {
    files: Object.assign(list, { item: (i: number) => list[i] ?? null }),
    items: [],
    types: [...Object.keys(strings), ...(files.length ? ['Files'] : [])],
    getData: (type: string) => strings[type] ?? '',
  } as unknown as DataTransfer;
}

describe('a paste', () => {
  it("attaches a screenshot, a copied image and copied files, but leaves a spreadsheet's cells to be pasted as text", () => {
    const png = { name: 'image.png', type: 'image/png' };
    expect(pastedFiles(clipboard([png])).map((f) => f.name)).toEqual(['image.png']);
    expect(pastedFiles(clipboard([png], { 'text/html': '<img src="x">' }))).toHaveLength(1);
    expect(pastedFiles(clipboard([{ name: 'r.pdf', type: 'application/pdf' }], { 'text/plain': 'r.pdf' }))).toHaveLength(1);
    expect(pastedFiles(clipboard([png], { 'text/plain': 'a\tb', 'text/html': '<table>…</table>' }))).toEqual([]);
    expect(pastedFiles(clipboard([], { 'text/plain': 'hello' }))).toEqual([]);
    expect(pastedFiles(null)).toEqual([]);
  });
});
