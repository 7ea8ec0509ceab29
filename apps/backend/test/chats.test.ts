import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat, message } from '../src/db/schema';
import { insertSubChat } from './support/fixtures';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();
const chats = '/api/workspaces/default/chats';

async function createChat(body: Record<string, unknown> = {}, base = chats) {
  const res = await t.request(base, { json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

async function addMessages(chatId: string, texts: string[]) {
  await t.handle.db.insert(message).values(
    texts.map((text, i) => ({
      id: `${chatId}_m${i}`,
      chatId,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      parts: [{ type: 'text' as const, text }],
      seq: i + 1,
    })),
  );
}

describe('chats', () => {
  it('creates a chat for an agent and returns it with its messages in order', async () => {
    const agent = await json(await t.request('/api/workspaces/default/agents', { json: { name: 'Chatty' } }));
    const c = await createChat({ agentId: agent.id, title: 'Hello' });
    expect(c).toMatchObject({ agentId: agent.id, title: 'Hello', parentChatId: null, status: null, inputTokens: 0 });
    await addMessages(c.id, ['first', 'second', 'third']);
    const full = await json(await t.request(`${chats}/${c.id}`));
    expect(full.messages.map((m: { parts: { text: string }[] }) => m.parts[0]!.text)).toEqual(['first', 'second', 'third']);
    expect(full.messages[1]).toMatchObject({ role: 'assistant', chatId: c.id, metadata: null });
  });

  it('renames a chat', async () => {
    const c = await createChat({ title: 'Old' });
    const res = await t.request(`${chats}/${c.id}`, { method: 'PATCH', json: { title: 'New title' } });
    expect(res.status).toBe(200);
    expect((await json(res)).title).toBe('New title');
    expect((await t.request(`${chats}/${c.id}`, { method: 'PATCH', json: { title: '' } })).status).toBe(400);
  });

  it('lists top-level chats only, most recently active first', async () => {
    const ws = await json(await t.request('/api/workspaces', { json: { name: 'Listing' } }));
    const base = `/api/workspaces/${ws.id}/chats`;
    const a = await createChat({ title: 'A' }, base);
    const b = await createChat({ title: 'B' }, base);
    await insertSubChat(t.handle.db, b, 'call_1');
    // Activity in A moves it to the top.
    await t.handle.db
      .update(chat)
      .set({ updatedAt: new Date(Date.now() + 60_000) })
      .where(eq(chat.id, a.id));
    const list = await json(await t.request(base));
    expect(list.data.map((c: { title: string }) => c.title)).toEqual(['A', 'B']);
    const paged = await json(await t.request(`${base}?limit=1`));
    expect(paged.data).toHaveLength(1);
    const rest = await json(await t.request(`${base}?limit=1&cursor=${paged.nextCursor}`));
    expect(rest.data.map((c: { title: string }) => c.title)).toEqual(['B']);
    expect(rest.nextCursor).toBeNull();
  });

  it('lists sub-chats of a chat and deletes them with it', async () => {
    const parent = await createChat({ title: 'Parent' });
    const s1 = await insertSubChat(t.handle.db, parent, 'call_a');
    const s2 = await insertSubChat(t.handle.db, parent, 'call_b');
    await addMessages(s1.id, ['task', 'done']);
    const subs = await json(await t.request(`${chats}/${parent.id}/sub-chats`));
    expect(subs.data.map((c: { id: string }) => c.id)).toEqual([s1.id, s2.id]);

    expect((await t.request(`${chats}/${parent.id}`, { method: 'DELETE' })).status).toBe(204);
    for (const id of [parent.id, s1.id, s2.id]) expect((await t.request(`${chats}/${id}`)).status).toBe(404);
    expect(await t.handle.db.select().from(message).where(eq(message.chatId, s1.id))).toEqual([]);
  });

  it('rejects a parent chat or agent of another workspace like an unknown one', async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    const foreignChat = await createChat({}, `/api/workspaces/${other.id}/chats`);
    const foreignAgent = await json(await t.request(`/api/workspaces/${other.id}/agents`, { json: { name: 'Foreign' } }));
    for (const body of [
      { parentChatId: foreignChat.id },
      { parentChatId: 'chat_missing' },
      { agentId: foreignAgent.id },
      { agentId: 'agent_missing' },
      { parentToolCallId: 'call_x' },
      // Sub-chats are born only through delegation, never through this endpoint.
      { agentId: 'agent_any', parentChatId: 'chat_any', parentToolCallId: 'call_x' },
    ]) {
      const before = await t.snapshot();
      const res = await t.request(chats, { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
      expect(await t.snapshot()).toBe(before);
    }
    for (const path of [`${chats}/${foreignChat.id}`, `${chats}/${foreignChat.id}/sub-chats`]) {
      expect((await t.request(path)).status).toBe(404);
    }
    expect((await t.request(`${chats}/${foreignChat.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});
