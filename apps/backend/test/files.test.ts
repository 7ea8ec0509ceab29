import { request as httpRequest } from 'node:http';
import { eq } from 'drizzle-orm';
import { UNATTACHED_FILE_TTL_MS } from '@baton/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { file } from '../src/db/schema';
import { sweepFiles } from '../src/services/file-sweep';
import { attachFilesToChat } from '../src/services/files';
import { type Account, bearer, createApiKey, invitedAccount } from './support/accounts';
import { FILES, fileForm, filesPath, upload } from './support/files';
import { json, useTestApp } from './support/test-app';

// Uploads (issue 20's first slice): stored in the database, served only to who may read
// them, typed from their bytes, limited in size, gone with their chat or after a day unused.
const MAX = 256 * 1024;
const t = useTestApp({ files: async () => ({ limits: { maxBytes: MAX, mediaTypes: (await import('@baton/schemas')).FILE_MEDIA_TYPES, maxPerMessage: 10 } }) });
const W = '/api/workspaces/default';
let member: Account;
let memberKey: string;
let otherWorkspace: string;

beforeAll(async () => {
  member = await invitedAccount(t.anonymous, t.owner, 'member@baton.test');
  memberKey = (await createApiKey(t.anonymous, member)).key;
  otherWorkspace = (await json(await t.request('/api/workspaces', { json: { name: 'Other' } }))).id;
});

const newChat = async () => (await json(await t.request(`${W}/chats`, { json: { title: 'With files' } }))).id as string;
const owner = () => ({ workspaceId: 'default', userId: t.owner.userId });
const rowOf = async (id: string) => (await t.handle.db.select().from(file).where(eq(file.id, id)))[0];

describe('upload and serve', () => {
  it('answers 201 with the file, and its url serves the same bytes to the uploader (session and API key)', async () => {
    const res = await upload(t, 'pixel.png', FILES.png, { type: 'image/png' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.stringMatching(/^file_/),
      name: 'pixel.png',
      mediaType: 'image/png',
      size: FILES.png.length,
      createdAt: expect.any(String),
      url: `${W}/files/${body.id}`,
    });
    for (const headers of [{}, { cookie: '', ...bearer(t.owner.apiKey) }]) {
      const served = await t.request(body.url, { headers });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(served.headers.get('content-disposition')).toBe(`inline; filename="pixel.png"; filename*=UTF-8''pixel.png`);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(FILES.png);
    }
    const row = await rowOf(body.id);
    expect(row).toMatchObject({ storage: 'database', chatId: null, userId: t.owner.userId, workspaceId: 'default' });
    expect(Buffer.from(row!.bytes!)).toEqual(FILES.png);
    expect(row!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['a JPEG', 'photo.jpg', FILES.jpeg, 'image/jpeg', 'inline'],
    ['a GIF', 'anim.gif', FILES.gif, 'image/gif', 'inline'],
    ['a WebP', 'pic.webp', FILES.webp, 'image/webp', 'inline'],
    ['a PDF', 'report.pdf', FILES.pdf, 'application/pdf', 'attachment'],
    ['Markdown', 'notes.md', Buffer.from('# Notes\n\n- one\n'), 'text/markdown', 'attachment'],
    ['a CSV', 'data.csv', Buffer.from('a,b\n1,2\n'), 'text/csv', 'attachment'],
    ['JSON', 'data.json', Buffer.from('{"a": [1, 2]}'), 'application/json', 'attachment'],
    ['JSON that does not parse, as text', 'broken.json', Buffer.from('{"a": '), 'text/plain', 'attachment'],
    ['source code', 'main.ts', Buffer.from('export const x = 1;\n'), 'text/plain', 'attachment'],
    ['an SVG (a document that can script), as text', 'logo.svg', FILES.svg, 'text/plain', 'attachment'],
    ['an HTML page claiming to be a PNG, as text', 'page.png', FILES.html, 'text/plain', 'attachment'],
  ])('takes %s, typed from its bytes, and serves it %s', async (_what, name, bytes, mediaType, disposition) => {
    const res = await upload(t, name, bytes, { type: 'image/png' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.mediaType).toBe(mediaType);
    const served = await t.request(body.url);
    expect(served.headers.get('content-type')).toBe(
      mediaType.startsWith('image/') || mediaType === 'application/pdf' ? mediaType : `${mediaType}; charset=utf-8`,
    );
    expect(served.headers.get('content-disposition')!.split(';')[0]).toBe(disposition);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it('keeps emoji in a name and drops NUL bytes, other control characters, directories and direction overrides', async () => {
    const cases = [
      ['re\u0000port 📊.csv', 'report 📊.csv'],
      ['../../etc/passwd.txt', 'passwd.txt'],
      ['C:\\Users\\me\\notes.txt', 'notes.txt'],
      ['invoice\u202Efdp.txt', 'invoicefdp.txt'],
      ['\u0000\u0001', 'file'],
    ];
    for (const [raw, clean] of cases) {
      const body = await json(await upload(t, raw!, Buffer.from('a,b\n')));
      expect(body.name, raw).toBe(clean);
      const served = await t.request(body.url);
      expect(served.headers.get('content-disposition'), raw).toBe(
        `attachment; filename="${clean!.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(clean!)}`,
      );
    }
    // Written by hand, so the NUL is surely in the part header the server parses.
    const raw = Buffer.concat([
      Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="file"; filename="nul\u0000by\u0000te 🦦.txt"\r\nContent-Type: text/plain\r\n\r\n'),
      Buffer.from('hello'),
      Buffer.from('\r\n--b0undary--\r\n'),
    ]);
    const res = await t.request(filesPath(), { method: 'POST', body: raw, headers: { 'content-type': 'multipart/form-data; boundary=b0undary' } });
    expect(res.status).toBe(201);
    expect((await json(res)).name).toBe('nulbyte 🦦.txt');
    const emoji = await json(await upload(t, '📊 chart.png', FILES.png));
    expect((await t.request(emoji.url)).headers.get('content-disposition')).toBe(`inline; filename="__ chart.png"; filename*=UTF-8''%F0%9F%93%8A%20chart.png`);
  });
});

describe('who may read a file', () => {
  it("another member's upload is 404, in the chat too, exactly like an unknown id", async () => {
    const uploaded = await json(await upload(t, 'mine.png', FILES.png));
    for (const headers of [{ cookie: member.cookie }, { cookie: '', ...bearer(memberKey) }]) {
      const res = await t.request(uploaded.url, { headers });
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe('not_found');
    }
    const chatId = await newChat();
    await attachFilesToChat(t.handle.db, owner(), chatId, [uploaded.id]);
    expect((await t.request(uploaded.url)).status).toBe(200);
    expect((await t.request(uploaded.url, { headers: { cookie: member.cookie } })).status).toBe(404);
    expect((await t.request(`${W}/files/file_unknown`)).status).toBe(404);
  });

  it("another workspace's file is 404 through this workspace's URL, and the other workspace is 404 to a non-member", async () => {
    const elsewhere = await json(await upload(t, 'there.png', FILES.png, { workspaceId: otherWorkspace }));
    expect(elsewhere.url).toBe(`/api/workspaces/${otherWorkspace}/files/${elsewhere.id}`);
    expect((await t.request(elsewhere.url)).status).toBe(200);
    expect((await t.request(`${W}/files/${elsewhere.id}`)).status).toBe(404);
    expect((await t.request(elsewhere.url, { headers: { cookie: member.cookie } })).status).toBe(404);
    const here = await json(await upload(t, 'here.png', FILES.png));
    expect((await t.request(`/api/workspaces/${otherWorkspace}/files/${here.id}`)).status).toBe(404);
  });
});

describe('refused uploads store nothing', () => {
  const refused = async (res: Response | Promise<Response>, status: number, code: string, message?: RegExp) => {
    const r = await res;
    expect(r.status).toBe(status);
    const body = await json(r);
    expect(body.error.code).toBe(code);
    if (message) expect(body.error.message).toMatch(message);
    return body;
  };

  it('an .exe renamed .png (claimed image/png) → 415 naming what it is and the accepted types', async () => {
    const before = await t.snapshot();
    const body = await refused(
      upload(t, 'holiday.png', FILES.exe, { type: 'image/png' }),
      415,
      'unsupported_media_type',
      /holiday\.png: this type of file can't be attached \(application\/x-msdownload\)/,
    );
    expect(body.error.message).toContain('image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain');
    expect(body.error.details.accepted).toContain('application/pdf');
    expect(await t.snapshot()).toBe(before);
  });

  it('unknown binary data → 415; an empty file → 400', async () => {
    const before = await t.snapshot();
    await refused(upload(t, 'blob.bin', Buffer.from([0, 1, 2, 3, 255, 254])), 415, 'unsupported_media_type', /unknown type/);
    await refused(upload(t, 'empty.txt', Buffer.alloc(0)), 400, 'invalid_request', /empty/);
    expect(await t.snapshot()).toBe(before);
  });

  it('a file over the size limit → 413 naming the limit, whether the body is just over it or far over it', async () => {
    const before = await t.snapshot();
    // Within the multipart allowance: the body is read, the file measured.
    await refused(upload(t, 'big.txt', Buffer.alloc(MAX + 1, 'a')), 413, 'payload_too_large', /at most 256 KiB \(BATON_FILE_MAX_BYTES\)/);
    // Far over: refused by its declared length, before reading.
    await refused(upload(t, 'huge.txt', Buffer.alloc(4 * MAX, 'a')), 413, 'payload_too_large', /256 KiB/);
    expect(await t.snapshot()).toBe(before);
    // Exactly at the limit is fine.
    expect((await upload(t, 'max.txt', Buffer.alloc(MAX, 'a'))).status).toBe(201);
  });

  it('a chunked body over the limit is cut off once past it, not read whole (real socket, 413 with Connection: close)', async () => {
    const before = await t.snapshot();
    const form = fileForm('stream.txt', Buffer.alloc(8 * MAX, 'a'));
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type')!;
    const payload = Buffer.from(await encoded.arrayBuffer());
    const result = await new Promise<{ status: number; connection?: string; text: string }>((resolve, reject) => {
      const req = httpRequest(`${t.baseUrl}${filesPath()}`, { method: 'POST', headers: { 'content-type': contentType, cookie: t.owner.cookie } });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
      });
      req.on('error', reject);
      // No Content-Length: chunked, in 16 KiB pieces.
      let at = 0;
      const more = () => {
        while (at < payload.length) {
          const piece = payload.subarray(at, at + 16 * 1024);
          at += piece.length;
          if (!req.write(piece)) return void req.once('drain', more);
        }
        req.end();
      };
      more();
    });
    expect(result.status).toBe(413);
    expect(result.connection).toBe('close');
    expect(JSON.parse(result.text).error.message).toMatch(/256 KiB/);
    expect(await t.snapshot()).toBe(before);
  });

  it('malformed multipart, another body type, no `file` field, a text field named file, two files → 400', async () => {
    const before = await t.snapshot();
    const post = (body: BodyInit, contentType?: string) =>
      t.request(filesPath(), { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });
    await refused(post('--nope\r\nthis is not multipart', 'multipart/form-data; boundary=xyz'), 400, 'invalid_request', /not valid multipart/);
    await refused(post('{"file": "x"}', 'application/json'), 400, 'invalid_request', /multipart\/form-data/);
    await refused(post(fileForm('a.txt', Buffer.from('hi'), 'text/plain', 'attachment')), 400, 'invalid_request', /no file in its field "file"/);
    const textField = new FormData();
    textField.append('file', 'just text');
    await refused(post(textField), 400, 'invalid_request', /no file in its field "file"/);
    const two = fileForm('a.txt', Buffer.from('a'));
    two.append('file', new File([Buffer.from('b')], 'b.txt'));
    await refused(post(two), 400, 'invalid_request', /one file per request/);
    expect(await t.snapshot()).toBe(before);
  });
});

describe('lifecycle', () => {
  it("a chat's files go with the chat", async () => {
    const chatId = await newChat();
    const a = await json(await upload(t, 'a.png', FILES.png));
    const b = await json(await upload(t, 'b.pdf', FILES.pdf));
    const attached = await attachFilesToChat(t.handle.db, owner(), chatId, [a.id, b.id, a.id]);
    expect(attached.map((f) => f.id)).toEqual([a.id, b.id]);
    expect((await rowOf(a.id))!.chatId).toBe(chatId);
    expect((await t.request(`${W}/chats/${chatId}`, { method: 'DELETE' })).status).toBe(204);
    for (const f of [a, b]) {
      expect((await t.request(f.url)).status).toBe(404);
      expect(await rowOf(f.id)).toBeUndefined();
    }
  });

  it('unattached uploads are removed after 24 hours; attached ones stay', async () => {
    const loose = await json(await upload(t, 'loose.txt', Buffer.from('unused')));
    const kept = await json(await upload(t, 'kept.txt', Buffer.from('used')));
    await attachFilesToChat(t.handle.db, owner(), await newChat(), [kept.id]);
    const uploadedAt = new Date(loose.createdAt).getTime();
    expect((await sweepFiles(t.handle.db, t.files.store, new Date(uploadedAt + UNATTACHED_FILE_TTL_MS - 60_000))).unattached).toBe(0);
    expect((await t.request(loose.url)).status).toBe(200);
    const swept = await sweepFiles(t.handle.db, t.files.store, new Date(uploadedAt + UNATTACHED_FILE_TTL_MS + 60_000));
    expect(swept.unattached).toBeGreaterThanOrEqual(1);
    expect((await t.request(loose.url)).status).toBe(404);
    expect(await rowOf(loose.id)).toBeUndefined();
    expect((await t.request(kept.url)).status).toBe(200);
  });
});

describe('attachFilesToChat', () => {
  it("refuses another member's upload and chat as unknown, and a file already in another chat as a conflict, changing nothing", async () => {
    const mine = await json(await upload(t, 'mine.txt', Buffer.from('mine')));
    const theirs = await json(await upload(t, 'theirs.txt', Buffer.from('theirs'), { headers: { cookie: member.cookie } }));
    const chatId = await newChat();
    const memberChat = (await json(await t.request(`${W}/chats`, { json: { title: 'Theirs' }, headers: { cookie: member.cookie } }))).id;
    await expect(attachFilesToChat(t.handle.db, owner(), chatId, [mine.id, theirs.id])).rejects.toMatchObject({ status: 404 });
    await expect(attachFilesToChat(t.handle.db, owner(), memberChat, [mine.id])).rejects.toMatchObject({ status: 404 });
    await expect(attachFilesToChat(t.handle.db, { workspaceId: otherWorkspace, userId: t.owner.userId }, chatId, [mine.id])).rejects.toMatchObject({
      status: 404,
    });
    expect((await rowOf(mine.id))!.chatId).toBeNull();
    await attachFilesToChat(t.handle.db, owner(), chatId, [mine.id]);
    await attachFilesToChat(t.handle.db, owner(), chatId, [mine.id]);
    await expect(attachFilesToChat(t.handle.db, owner(), await newChat(), [mine.id])).rejects.toMatchObject({ status: 409 });
    expect((await rowOf(mine.id))!.chatId).toBe(chatId);
  });
});
