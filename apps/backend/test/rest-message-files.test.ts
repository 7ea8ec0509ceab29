import { eq } from 'drizzle-orm';
import { fileUrl } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { file } from '../src/db/schema';
import { seedStarterAgents } from '../src/services/starter-agents';
import { createApiKey, invitedAccount } from './support/accounts';
import { FILES, upload } from './support/files';
import { json, useTestApp } from './support/test-app';

// Issue 20: REST clients send files with a message (POST …/chats/:id/messages), as the web app
// and /v1 do: an upload's URL or a base64 data: URL, stored as files of the chat, read by the model.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';

async function newChat(headers: Record<string, string> = {}): Promise<string> {
  const agents = (await json(await t.request(`${ws}/agents?limit=100`))).data as { id: string; name: string }[];
  const res = await t.request(`${ws}/chats`, { method: 'POST', headers, json: { agentId: agents.find((a) => a.name === 'Assistant')!.id } });
  expect(res.status).toBe(201);
  return (await json(res)).id;
}

const send = (chatId: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request(`${ws}/chats/${chatId}/messages`, { method: 'POST', headers, json: body });

describe('POST …/chats/:id/messages with files', () => {
  it('takes an uploaded file and a data: URL: both stored in the chat, the message keeps references, the model reports them', async () => {
    await seedStarterAgents(t.handle.db);
    const chatId = await newChat();
    const uploaded = await json(await upload(t, 'paper.pdf', FILES.pdf, { type: 'application/pdf' }));
    const res = await send(chatId, {
      text: 'What are these? 📎',
      files: [
        { type: 'file', mediaType: 'application/pdf', filename: 'paper.pdf', url: uploaded.url },
        { type: 'file', mediaType: 'image/png', filename: 'pixel.png', url: `data:image/png;base64,${FILES.png.toString('base64')}` },
      ],
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    const [user, answer] = body.messages;
    const rows = await t.handle.db.select().from(file).where(eq(file.chatId, chatId));
    expect(rows.map((r) => r.mediaType).sort()).toEqual(['application/pdf', 'image/png']);
    const png = rows.find((r) => r.mediaType === 'image/png')!;
    expect(user.parts).toEqual([
      { type: 'file', mediaType: 'application/pdf', filename: 'paper.pdf', url: uploaded.url },
      { type: 'file', mediaType: 'image/png', filename: 'pixel.png', url: fileUrl('default', png.id) },
      { type: 'text', text: 'What are these? 📎' },
    ]);
    const text = answer.parts
      .filter((p: { type: string }) => p.type === 'text')
      .map((p: { text: string }) => p.text)
      .join('\n');
    expect(text).toContain('I received 2 files:');
    expect(text).toContain(`- paper.pdf: application/pdf, ${FILES.pdf.length} bytes`);
  });

  it('takes files alone (titled by their names), and refuses an empty message, another user’s file and a sub-chat that has ended', async () => {
    const chatId = await newChat();
    const alone = await send(chatId, {
      files: [{ type: 'file', mediaType: 'image/png', filename: 'pixel.png', url: `data:image/png;base64,${FILES.png.toString('base64')}` }],
    });
    expect(alone.status).toBe(200);
    expect((await json(await t.request(`${ws}/chats/${chatId}`))).title).toBe('pixel.png');

    const empty = await send(chatId, { text: '  ' });
    expect(empty.status).toBe(400);
    expect((await json(empty)).error.message).toContain('text: must not be empty');

    const notAFileUrl = await send(chatId, { text: 'hi', files: [{ type: 'file', mediaType: 'image/png', url: 'https://example.com/cat.png' }] });
    expect(notAFileUrl.status).toBe(400);

    // Someone else's upload (a second account, joined to the workspace) is "not found", and nothing is written.
    const before = (await json(await t.request(`${ws}/chats/${chatId}`))).messages.length;
    const other = await invitedAccount(t.anonymous, t.owner, 'other@baton.test');
    const theirs = await json(await upload(t, 'theirs.png', FILES.png, { type: 'image/png', headers: { cookie: other.cookie } }));
    const stolen = await send(chatId, { text: 'look', files: [{ type: 'file', mediaType: 'image/png', url: theirs.url }] });
    expect(stolen.status).toBe(404);
    expect((await json(await t.request(`${ws}/chats/${chatId}`))).messages.length).toBe(before);

    // A sub-chat takes files as steering (steering-files.test.ts) — only while its sub-agent runs.
    expect((await send(chatId, { text: '/delegate Researcher: otters' })).status).toBe(200);
    const [sub] = (await json(await t.request(`${ws}/chats/${chatId}/sub-chats`))).data;
    const mine = await json(await upload(t, 'mine.png', FILES.png, { type: 'image/png' }));
    const steer = await send(sub.id, { text: 'also this', files: [{ type: 'file', mediaType: 'image/png', url: mine.url }] });
    expect(steer.status).toBe(409);
    expect((await json(steer)).error.message).toContain('not running any more');
  });

  it('works with an API key, and a data: URL that is not an accepted type is refused with the accepted list', async () => {
    const key = await createApiKey(t.anonymous, t.owner, 'default', 'files');
    const auth = { authorization: `Bearer ${key.key}`, cookie: '' };
    const chatId = await newChat(auth);
    const exe = await send(
      chatId,
      {
        text: 'run this',
        files: [{ type: 'file', mediaType: 'application/octet-stream', url: `data:application/octet-stream;base64,${FILES.exe.toString('base64')}` }],
      },
      auth,
    );
    expect(exe.status).toBe(415);
    const ok = await send(
      chatId,
      { text: 'and this', files: [{ type: 'file', mediaType: 'image/gif', url: `data:image/gif;base64,${FILES.gif.toString('base64')}` }] },
      auth,
    );
    expect(ok.status).toBe(200);
  });
});
