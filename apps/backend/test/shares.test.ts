import type { ShareCreated, SharedChat, SharedSubChat } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatShare } from '../src/db/schema';
import { invitedAccount } from './support/accounts';
import { FILES, upload } from './support/files';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ demoDelayMs: 1 });

/** A workspace of the owner's own (random id, its starter agents: Assistant → Researcher, Writer), so no id in it is a common word. */
let W: string;
let agents: Record<string, string>;
/** A chat of the Assistant that delegated to the Researcher (the REST flow: sub-agents run on the server). */
let delegated: { id: string; subChatId: string; messageIds: string[] };

const share = (chatId: string, body: unknown = {}, headers: Record<string, string> = {}) => t.request(`${W}/chats/${chatId}/shares`, { json: body, headers });
const readShared = (token: string) => t.anonymous(`/api/shared/${encodeURIComponent(token)}`);

beforeAll(async () => {
  const ws = await json(await t.request('/api/workspaces', { json: { name: 'Sharing 🔗' } }));
  W = `/api/workspaces/${ws.id}`;
  const list = (await json(await t.request(`${W}/agents`))).data as { id: string; name: string }[];
  agents = Object.fromEntries(list.map((a) => [a.name, a.id]));
  const c = await json(await t.request(`${W}/chats`, { json: { agentId: agents.Assistant } }));
  const turn = await t.request(`${W}/chats/${c.id}/messages`, { json: { text: '/delegate Researcher: three facts about otters 🦦' } });
  expect(turn.status).toBe(200);
  const stored = await json(await t.request(`${W}/chats/${c.id}`));
  const sub = (await json(await t.request(`${W}/chats/${c.id}/sub-chats`))).data[0];
  const subStored = await json(await t.request(`${W}/chats/${sub.id}`));
  delegated = { id: c.id, subChatId: sub.id, messageIds: [...stored.messages, ...subStored.messages].map((m: { id: string }) => m.id) };
});

describe('share links', () => {
  it('shares a chat read-only: the link shows its messages and the delegation’s sub-chat without credentials, under the share’s own ids', async () => {
    const res = await share(delegated.id);
    expect(res.status).toBe(201);
    const created = (await json(res)) as ShareCreated;
    expect(created).toMatchObject({ id: expect.any(String), token: expect.any(String), expiresAt: null });
    expect(created.url).toBe(`http://localhost:3000/shared/${created.token}`);
    // Only the token's hash is stored.
    expect(await t.snapshot()).not.toContain(created.token);

    const read = await readShared(created.token);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toContain('no-store');
    const body = (await json(read)) as SharedChat;
    expect(body.chat.title).toBe('Researcher: three facts about otters 🦦');
    expect(body.chat.agentName).toBe('Assistant');
    expect(body.chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(body.chat.subChats).toHaveLength(1);
    const sub = body.chat.subChats[0] as SharedSubChat;
    expect(sub).toMatchObject({ agentName: 'Researcher', task: 'three facts about otters 🦦', status: 'success', outcome: 'success', depth: 1 });
    expect(sub.messages.length).toBeGreaterThan(1);
    // The delegation block finds its sub-chat and names its agent from the share alone.
    const call = body.chat.messages[1]!.parts.find((p) => p.type === 'tool-newTask') as {
      toolCallId: string;
      input: { subAgentId: string };
      output: { subChatId: string };
    };
    expect(call.output.subChatId).toBe(sub.id);
    expect(sub.parentToolCallId).toBe(call.toolCallId);
    expect(body.chat.agents.find((a) => a.id === call.input.subAgentId)?.name).toBe('Researcher');

    // No id of the workspace, its people, its agents, chats or messages; no email.
    const text = JSON.stringify(body);
    for (const secret of [
      W.split('/').at(-1)!,
      t.owner.userId,
      t.owner.email,
      delegated.id,
      delegated.subChatId,
      ...delegated.messageIds,
      ...Object.values(agents),
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(text).not.toContain('/api/workspaces/');
    expect(body.chat.messages[1]!.metadata).not.toHaveProperty('agentId');
  });

  it('lists the caller’s links with their chats’ titles, and revoking one makes it 404 at once', async () => {
    const created = (await json(await share(delegated.id))) as ShareCreated;
    const list = (await json(await t.request(`${W}/shares`))).data as { id: string; chatId: string; chatTitle: string; expired: boolean }[];
    expect(list[0]).toMatchObject({ id: created.id, chatId: delegated.id, chatTitle: 'Researcher: three facts about otters 🦦', expired: false });
    expect(list.some((s) => 'token' in s || 'tokenHash' in s)).toBe(false);

    expect((await t.request(`${W}/shares/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    const gone = await readShared(created.token);
    expect(gone.status).toBe(404);
    expect((await json(gone)).error.code).toBe('not_found');
    expect((await t.request(`${W}/shares/${created.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(((await json(await t.request(`${W}/shares`))).data as { id: string }[]).map((s) => s.id)).not.toContain(created.id);
  });

  it('an expired link is 404 and listed as expired; expiries in the past or too far ahead are refused', async () => {
    const ahead = new Date(Date.now() + 24 * 3600_000).toISOString();
    const created = (await json(await share(delegated.id, { expiresAt: ahead }))) as ShareCreated;
    expect(created.expiresAt).toBe(ahead);
    expect((await readShared(created.token)).status).toBe(200);
    // Its time passes (set on the row: tests never wait for a clock).
    await t.handle.db
      .update(chatShare)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(chatShare.id, created.id));
    expect((await readShared(created.token)).status).toBe(404);
    const listed = ((await json(await t.request(`${W}/shares`))).data as { id: string; expired: boolean }[]).find((s) => s.id === created.id);
    expect(listed?.expired).toBe(true);

    const before = await t.snapshot();
    for (const body of [
      { expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { expiresAt: new Date(Date.now() + 400 * 24 * 3600_000).toISOString() },
      { expiresAt: 'tomorrow' },
      { expiresAt: '2027-01-01T00:00:00\u0000Z' },
      { token: 'mine' },
    ]) {
      const res = await share(delegated.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    expect(await t.snapshot()).toBe(before);
  });

  it('only the chat’s author may share it: another member, another workspace’s path and unknown ids are 404', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'sharer-member@baton.test', { workspaceId: W.split('/').at(-1) });
    const asMember = { cookie: member.cookie };
    const before = await t.snapshot();
    expect((await share(delegated.id, {}, asMember)).status).toBe(404);
    // The owner's chat under the default workspace's path, and a sub-chat id that is not a chat of this caller.
    expect((await t.request(`/api/workspaces/default/chats/${delegated.id}/shares`, { json: {} })).status).toBe(404);
    expect((await share('chat_does_not_exist')).status).toBe(404);
    expect(await t.snapshot()).toBe(before);

    // The member's list does not hold the owner's links; revoking one of them is 404.
    const mine = (await json(await share(delegated.id))) as ShareCreated;
    expect((await json(await t.request(`${W}/shares`, { headers: asMember }))).data).toEqual([]);
    expect((await t.request(`${W}/shares/${mine.id}`, { method: 'DELETE', headers: asMember })).status).toBe(404);
    expect((await t.request(`/api/workspaces/default/shares/${mine.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await readShared(mine.token)).status).toBe(200);
  });

  it('a link stops working when its author leaves the workspace or the chat is deleted', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'leaver@baton.test', { workspaceId: W.split('/').at(-1) });
    const asMember = { cookie: member.cookie };
    const c = await json(await t.request(`${W}/chats`, { json: { agentId: agents.Assistant }, headers: asMember }));
    await t.request(`${W}/chats/${c.id}/messages`, { json: { text: 'hello' }, headers: asMember });
    const link = (await json(await share(c.id, {}, asMember))) as ShareCreated;
    expect((await readShared(link.token)).status).toBe(200);
    expect((await t.request(`${W}/members/${member.userId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await readShared(link.token)).status).toBe(404);

    const own = await json(await t.request(`${W}/chats`, { json: { agentId: agents.Assistant } }));
    const ownLink = (await json(await share(own.id))) as ShareCreated;
    expect((await readShared(ownLink.token)).status).toBe(200);
    expect((await t.request(`${W}/chats/${own.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await readShared(ownLink.token)).status).toBe(404);
  });

  it('serves the shared chat’s files through the link, and no other file', async () => {
    const wsId = W.split('/').at(-1)!;
    const c = await json(await t.request(`${W}/chats`, { json: { agentId: agents.Assistant } }));
    const sent = await t.request(`${W}/chats/${c.id}/messages`, {
      json: {
        text: 'a picture',
        files: [{ type: 'file', mediaType: 'image/png', filename: 'pixel.png', url: `data:image/png;base64,${FILES.png.toString('base64')}` }],
      },
    });
    expect(sent.status).toBe(200);
    const other = await json(await upload(t, 'other.png', FILES.png, { workspaceId: wsId }));
    const link = (await json(await share(c.id))) as ShareCreated;
    const body = (await json(await readShared(link.token))) as SharedChat;
    const part = body.chat.messages[0]!.parts.find((p) => p.type === 'file') as { url: string };
    expect(part.url).toMatch(new RegExp(`^/api/shared/${link.token}/files/file_`));
    const bytes = await t.anonymous(part.url);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(bytes.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(FILES.png);
    // An upload that is in no shared chat, and a revoked link's files, are 404.
    expect((await t.anonymous(`/api/shared/${link.token}/files/${other.id}`)).status).toBe(404);
    await t.request(`${W}/shares/${link.id}`, { method: 'DELETE' });
    expect((await t.anonymous(part.url)).status).toBe(404);
  });

  it('unknown and malformed tokens are 404 alike; a NUL in the token is a 400', async () => {
    for (const token of ['nope', 'x'.repeat(43), '🦦']) expect((await readShared(token)).status).toBe(404);
    expect((await readShared('a\u0000b')).status).toBe(400);
  });

  it('sharing a chat while it is deleted is a link that goes with it, or a 404: never a failure', async () => {
    for (let i = 0; i < 3; i++) {
      const c = await json(await t.request(`${W}/chats`, { json: { agentId: agents.Assistant } }));
      const [made, deleted] = await Promise.all([share(c.id), t.request(`${W}/chats/${c.id}`, { method: 'DELETE' })]);
      expect([201, 404]).toContain(made.status);
      expect(deleted.status).toBe(204);
      if (made.status === 201) expect((await readShared(((await json(made)) as ShareCreated).token)).status).toBe(404);
      const rows = await t.handle.db.select().from(chatShare).where(eq(chatShare.chatId, c.id));
      expect(rows).toEqual([]);
    }
  });

  it('two links made at once are two links, each working', async () => {
    const [a, b] = await Promise.all([share(delegated.id), share(delegated.id)]);
    const [x, y] = [(await json(a)) as ShareCreated, (await json(b)) as ShareCreated];
    expect(x.token).not.toBe(y.token);
    expect((await readShared(x.token)).status).toBe(200);
    expect((await readShared(y.token)).status).toBe(200);
  });
});
