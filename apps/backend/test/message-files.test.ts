import { eq } from 'drizzle-orm';
import { fileUrl } from '@baton/schemas';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { file } from '../src/db/schema';
import { type Account, invitedAccount } from './support/accounts';
import { postStream, textOf } from './support/chat-client';
import { FILES, upload } from './support/files';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Issue 20, slice 2: a user message carries AI SDK `file` parts that refer to Baton files (or
// bring a `data:` URL, stored as a file); sending attaches them to the chat, and the model
// receives them read from the store at turn time — images scaled, text files as text.
const t = useTestApp();
const W = '/api/workspaces/default';
let member: Account;
let otherWorkspace: string;
let agentId: string;

beforeAll(async () => {
  agentId = (await json(await t.request(`${W}/agents`, { json: { name: 'Looker' } }))).id;
  member = await invitedAccount(t.anonymous, t.owner, 'member@baton.test');
  otherWorkspace = (await json(await t.request('/api/workspaces', { json: { name: 'Other' } }))).id;
});

let n = 0;
const ids = () => {
  n += 1;
  return { chat: `chat-files-${n}`, message: `msg-files-${n}` };
};

const uploaded = async (name: string, bytes: Uint8Array, opts: Parameters<typeof upload>[3] = {}) => {
  const res = await upload(t, name, bytes, opts);
  expect(res.status).toBe(201);
  return json(res);
};

const filePart = (f: { url: string; name: string; mediaType: string }) => ({ type: 'file', mediaType: f.mediaType, filename: f.name, url: f.url });

const body = (parts: object[], id: { chat: string; message: string }) => ({ id: id.chat, agentId, message: { id: id.message, role: 'user', parts } });
/** Over a real socket, reading the streamed answer. */
const send = (parts: object[], id = ids()) => postStream(`${t.baseUrl}${W}/chat`, body(parts, id));
/** A request that is refused: its error body is read. */
const refused = (parts: object[], id = ids()) => t.request(`${W}/chat`, { json: body(parts, id) });

const rowOf = async (id: string) => (await t.handle.db.select().from(file).where(eq(file.id, id)))[0];
const storedUser = async (chatId: string) => (await json(await t.request(`${W}/chats/${chatId}`))).messages[0];
/** The content parts of the last user message of the newest model request. */
// biome-ignore lint/suspicious/noExplicitAny: the wire's content parts, read loosely by the assertions
function lastUserContent(): any[] {
  const request = t.demo.requests.at(-1)!;
  const user = request.messages.filter((m) => m.role === 'user').at(-1)!;
  return Array.isArray(user.content) ? user.content : [{ type: 'text', text: user.content }];
}

describe('file parts of a user message', () => {
  it('reach the model as a scaled image part and a text part, read from the store; the message keeps the references', async () => {
    const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const image = await uploaded('wide.png', wide, { type: 'image/png' });
    const notes = await uploaded('notes.md', Buffer.from('# Otters\nOtters hold hands while they sleep.\n'), { type: 'text/markdown' });
    const id = ids();
    const res = await send([{ type: 'text', text: 'What is in these?' }, filePart(image), filePart(notes)], id);
    expect(res.status).toBe(200);
    // The demo model says what reached it.
    const answer = textOf(res.chunks);
    expect(answer).toContain('I received 2 files:');
    expect(answer).toMatch(/- image 1: image\/png, [\d.]+ KiB/);
    expect(answer).toContain('- notes.md: text, 45 bytes — "# Otters Otters hold hands while they sleep."');

    const content = lastUserContent();
    expect(content.find((p) => p.type === 'text' && p.text.includes('What is in these?'))).toBeDefined();
    const img = content.find((p) => p.type === 'image_url');
    expect(img.image_url.url).toMatch(/^data:image\/png;base64,/);
    const meta = await sharp(Buffer.from(img.image_url.url.split(',')[1], 'base64')).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(2048);
    expect(meta.width).toBe(2048);
    expect(meta.height).toBe(512);
    expect(content.find((p) => p.type === 'text' && p.text === 'File notes.md:\n# Otters\nOtters hold hands while they sleep.\n')).toBeDefined();

    const stored = await storedUser(id.chat);
    expect(stored.parts).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'file', mediaType: 'image/png', filename: 'wide.png', url: image.url },
      { type: 'file', mediaType: 'text/markdown', filename: 'notes.md', url: notes.url },
    ]);
    expect((await rowOf(image.id))!.chatId).toBe(id.chat);
    expect((await rowOf(notes.id))!.chatId).toBe(id.chat);
  });

  it('stores a data: URL as a file of the chat and keeps only its reference', async () => {
    const id = ids();
    const csv = 'name,legs\notter,4\n';
    const dataUrl = `data:text/csv;base64,${Buffer.from(csv).toString('base64')}`;
    const res = await send([{ type: 'file', mediaType: 'text/csv', filename: 'animals.csv', url: dataUrl }], id);
    expect(res.status).toBe(200);
    const rows = await t.handle.db.select().from(file).where(eq(file.chatId, id.chat));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'animals.csv', mediaType: 'text/csv', userId: t.owner.userId, size: csv.length });
    const stored = await storedUser(id.chat);
    expect(stored.parts).toEqual([{ type: 'file', mediaType: 'text/csv', filename: 'animals.csv', url: fileUrl('default', rows[0]!.id) }]);
    expect(JSON.stringify(stored)).not.toContain('base64');
    expect(lastUserContent()).toContainEqual({ type: 'text', text: `File animals.csv:\n${csv}` });
  });

  it('adds files to an existing chat with a second message', async () => {
    const id = ids();
    expect((await send([{ type: 'text', text: 'hello' }], id)).status).toBe(200);
    const pdf = await uploaded('paper.pdf', FILES.pdf, { type: 'application/pdf' });
    const res = await send([{ type: 'text', text: 'and this' }, filePart(pdf)], { chat: id.chat, message: `${id.message}-2` });
    expect(res.status).toBe(200);
    expect((await rowOf(pdf.id))!.chatId).toBe(id.chat);
    const pdfPart = lastUserContent().find((p) => p.type === 'file');
    expect(pdfPart.file.file_data).toBe(`data:application/pdf;base64,${FILES.pdf.toString('base64')}`);
  });

  it("answers 404 for another workspace's, another user's or an unknown file, storing nothing", async () => {
    const mine = await uploaded('mine.txt', Buffer.from('mine'), { type: 'text/plain' });
    const elsewhere = await uploaded('elsewhere.txt', Buffer.from('elsewhere'), { type: 'text/plain', workspaceId: otherWorkspace });
    const theirs = await uploaded('theirs.txt', Buffer.from('theirs'), { type: 'text/plain', headers: { cookie: member.cookie } });
    const fakeOther = { ...elsewhere, url: fileUrl('default', elsewhere.id) };
    // A file of a chat that was deleted went with it.
    const gone = await uploaded('gone.txt', Buffer.from('gone'), { type: 'text/plain' });
    const goneChat = ids();
    expect((await send([filePart(gone)], goneChat)).status).toBe(200);
    await waitFor('the answer to end', async () => ((await t.isAnswering(goneChat.chat)) ? undefined : true));
    expect((await t.request(`${W}/chats/${goneChat.chat}`, { method: 'DELETE' })).status).toBeLessThan(300);
    for (const bad of [elsewhere, fakeOther, theirs, gone, { ...mine, url: fileUrl('default', 'file_unknown') }]) {
      const before = await t.snapshot();
      const id = ids();
      const res = await refused(
        [{ type: 'text', text: 'look' }, filePart(mine), { type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,aGk=' }, filePart(bad)],
        id,
      );
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(404);
      expect((await json(res)).error.code).toBe('not_found');
      expect(await t.snapshot()).toBe(before);
    }
    expect((await rowOf(mine.id))!.chatId).toBeNull();
  });

  it('refuses more than 10 files in one message (400 naming the limit), and a URL that is neither a Baton file nor data:', async () => {
    const parts = Array.from({ length: 11 }, (_, i) => ({ type: 'file', mediaType: 'text/plain', filename: `f${i}.txt`, url: 'data:text/plain;base64,aGk=' }));
    const before = await t.snapshot();
    const res = await refused(parts);
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toMatch(/at most 10 files.*BATON_FILE_MAX_PER_MESSAGE/);
    for (const url of [
      'https://example.com/cat.png',
      '/api/workspaces/default/chats',
      'file:///etc/passwd',
      'data:text/plain,not-base64',
      'data:text/plain;base64,@@not base64@@',
    ]) {
      const bad = await refused([{ type: 'file', mediaType: 'image/png', url }]);
      expect(bad.status, url).toBe(400);
      expect((await json(bad)).error.message, url).toMatch(/url/);
    }
    expect(await t.snapshot()).toBe(before);
  });
});
