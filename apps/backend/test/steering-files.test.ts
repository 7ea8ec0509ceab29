// Files sent to a running sub-agent (issue 20): checked like a message's files, put into the
// sub-chat when queued, given to the model at delivery as a message's files are (text files as
// text, images as images), and stored in the sub-chat's answer as references.
import { eq } from 'drizzle-orm';
import { type BatonUIMessage, DEFAULT_MAX_FILES_PER_MESSAGE, fileUrl } from '@baton/schemas';
import { convertToModelMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import { convertFileContentPart, type ModelInputMessage, withFileContents } from '../src/agent/file-contents';
import { file, steeringMessage } from '../src/db/schema';
import { databaseFileStore } from '../src/storage/file-store';
import { invitedAccount } from './support/accounts';
import { FILES, upload } from './support/files';
import { useLeadTeam } from './support/fixtures';
import type { StoredPart } from './support/messages';
import { startWaitingSubAgent } from './support/steering';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

const steer = (chatId: string, body: unknown) => t.request(`${ws}/chats/${chatId}/messages`, { json: body });
const BRIEF = 'Visit the tile museum first, then walk along the river to the old bridge.';
const pngDataUrl = `data:image/png;base64,${FILES.png.toString('base64')}`;

describe('POST /chats/:subChatId/messages with files (steering)', () => {
  it('puts the files into the sub-chat, the sub-agent receives them, and its answer keeps references', async () => {
    const { sub, turn } = await startWaitingSubAgent(t, agents.Lead!.id);
    const brief = await json(await upload(t, 'brief.md', Buffer.from(BRIEF), { type: 'text/markdown' }));
    const res = await steer(sub.id, {
      text: 'Use the brief',
      files: [
        { type: 'file', mediaType: 'text/markdown', filename: 'brief.md', url: brief.url },
        { type: 'file', mediaType: 'image/png', filename: 'map.png', url: pngDataUrl },
      ],
    });
    expect(res.status).toBe(202);
    const queued = await json(res);
    const rows = await t.handle.db.select().from(file).where(eq(file.chatId, sub.id));
    expect(rows.map((r) => r.name).sort()).toEqual(['brief.md', 'map.png']);
    const map = rows.find((r) => r.name === 'map.png')!;
    const sent = [
      { type: 'file', mediaType: 'text/markdown', filename: 'brief.md', url: brief.url },
      { type: 'file', mediaType: 'image/png', filename: 'map.png', url: fileUrl('default', map.id) },
    ];
    expect(queued).toMatchObject({ text: 'Use the brief', files: sent, status: 'queued' });

    // The model got the text file's words and the image (the demo model lists what it received).
    const call = (await json(await turn)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output.result).toContain('- Latest instruction: Use the brief');
    expect(call.output.result).toContain('I received 2 files:');
    expect(call.output.result).toContain(`- brief.md: text, ${BRIEF.length} bytes — "Visit the tile museum first, then walk along …"`);
    expect(call.output.result).toContain(`- image 1: image/png, ${FILES.png.length} bytes`);

    // Stored where the model saw it, as references — never the bytes.
    const stored = await json(await t.request(`${ws}/chats/${sub.id}`));
    const answer: BatonUIMessage = stored.messages.at(-1);
    const part = answer.parts.find((p) => p.type === 'steering-message');
    expect(part).toEqual({ type: 'steering-message', id: queued.id, parts: [...sent, { type: 'text', text: 'Use the brief' }] });
    expect(JSON.stringify(stored)).not.toContain('data:');
    const { data } = await json(await t.request(`${ws}/chats/${sub.id}/steering`));
    expect(data).toEqual([{ ...queued, status: 'delivered', stepNumber: expect.any(Number), deliveredAt: expect.any(String) }]);
    // The files are the sub-chat's: readable through it.
    expect((await t.request(brief.url)).status).toBe(200);

    // A later turn built from the stored answer gives the model the files again, read from the store.
    const input = await convertToModelMessages<ModelInputMessage>(
      await withFileContents(t.handle.db, databaseFileStore, { workspaceId: 'default', id: sub.id }, stored.messages, { pdfAsFile: true }),
      {
        convertDataPart: convertFileContentPart,
      },
    );
    const steered = input.find((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((c) => c.type === 'text' && c.text === 'Use the brief'));
    // The image as a data: URL, which the SDK hands to the provider as the bytes it carries.
    const [text, image, own] = steered!.content as unknown as [
      { text: string },
      { mediaType: string; filename: string; data: { type: string; url: URL } },
      { text: string },
    ];
    expect(text).toEqual({ type: 'text', text: `File brief.md:\n${BRIEF}` });
    expect([image.mediaType, image.filename, image.data.type, String(image.data.url)]).toEqual(['image/png', 'map.png', 'url', pngDataUrl]);
    expect(own).toEqual({ type: 'text', text: 'Use the brief' });
  });

  it('refuses another user’s or workspace’s file, too many files and a refused type — and queues nothing', async () => {
    const { sub, turn } = await startWaitingSubAgent(t, agents.Lead!.id);
    const other = await invitedAccount(t.anonymous, t.owner, 'steer-other@baton.test');
    const theirs = await json(await upload(t, 'theirs.png', FILES.png, { type: 'image/png', headers: { cookie: other.cookie } }));
    const elsewhereWs = (await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }))).id;
    const elsewhere = await json(await upload(t, 'there.png', FILES.png, { workspaceId: elsewhereWs }));
    const mine = await json(await upload(t, 'mine.png', FILES.png, { type: 'image/png' }));
    const part = (url: string) => ({ type: 'file', mediaType: 'image/png', url });
    const cases: [unknown, number, RegExp][] = [
      [{ text: 'look', files: [part(theirs.url)] }, 404, /not found/],
      [{ text: 'look', files: [part(mine.url), part(elsewhere.url)] }, 404, /not found/],
      [{ text: 'many', files: Array.from({ length: DEFAULT_MAX_FILES_PER_MESSAGE + 1 }, () => part(pngDataUrl)) }, 400, /at most 10 files/],
      [
        {
          text: 'run',
          files: [{ type: 'file', mediaType: 'application/octet-stream', url: `data:application/octet-stream;base64,${FILES.exe.toString('base64')}` }],
        },
        415,
        /can't be attached/,
      ],
      [{ text: 'x', files: [part('https://example.com/cat.png')] }, 400, /Baton file URL/],
    ];
    const filesBefore = (await t.handle.db.select({ id: file.id }).from(file)).length;
    for (const [body, status, message] of cases) {
      const res = await steer(sub.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect((await json(res)).error.message).toMatch(message);
    }
    expect(await t.handle.db.select().from(steeringMessage).where(eq(steeringMessage.chatId, sub.id))).toEqual([]);
    expect((await t.handle.db.select({ id: file.id }).from(file)).length).toBe(filesBefore);
    expect((await t.handle.db.select({ chatId: file.chatId }).from(file).where(eq(file.id, mine.id)))[0]!.chatId).toBeNull();
    expect((await t.handle.db.select({ chatId: file.chatId }).from(file).where(eq(file.id, theirs.id)))[0]!.chatId).toBeNull();

    // Files alone are a message too; once the sub-agent has ended, nothing is stored of a data: URL.
    expect((await steer(sub.id, { files: [part(mine.url)] })).status).toBe(202);
    const call = (await json(await turn)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output.result).toContain('- Latest instruction: (files only)');
    expect(call.output.result).toContain('I received 1 file:');
    const before = await t.snapshot();
    const late = await steer(sub.id, { text: 'too late', files: [part(pngDataUrl)] });
    expect(late.status).toBe(409);
    expect(await t.snapshot()).toBe(before);
  });

  it('the files go with the sub-chat when its parent chat is deleted', async () => {
    const { parent, sub, turn } = await startWaitingSubAgent(t, agents.Lead!.id);
    const res = await steer(sub.id, { text: 'and this', files: [{ type: 'file', mediaType: 'image/png', url: pngDataUrl }] });
    expect(res.status).toBe(202);
    const [sent] = (await json(res)).files;
    await turn;
    expect((await t.request(sent.url)).status).toBe(200);
    expect((await t.request(`${ws}/chats/${parent.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(sent.url)).status).toBe(404);
    expect(
      await t.handle.db
        .select()
        .from(file)
        .where(eq(file.id, sent.url.split('/').at(-1))),
    ).toEqual([]);
  });
});
