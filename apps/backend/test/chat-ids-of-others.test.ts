import { describe, expect, it } from 'vitest';
import { invitedAccount } from './support/accounts';
import { userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// Chat ids are chosen by clients (the browser names its new chats). An id that belongs to
// someone else's chat — another member's, another workspace's — must answer like a chat
// that is not there (404, as reading it does), never "already taken": that would confirm it exists.
const t = useTestApp();
const ws = '/api/workspaces/default';

describe('creating a chat with the id of a chat the caller cannot see', () => {
  it('answers 404 like reading it, on both ways to create a chat, and writes nothing', async () => {
    const other = await invitedAccount(t.anonymous, t.owner, 'other@baton.test');
    const asOther = { cookie: other.cookie };
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Chats' } }));
    const theirs = await json(await t.request(`${ws}/chats`, { json: { id: 'chat_theirs_0001', agentId: agent.id }, headers: asOther }));
    expect(theirs.id).toBe('chat_theirs_0001');
    // Another workspace's chat, by its owner.
    const side = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    await t.request(`/api/workspaces/${side.id}/chats`, { json: { id: 'chat_elsewhere_0001' } });

    const before = await t.snapshot();
    for (const [id, who] of [
      ['chat_theirs_0001', {}],
      ['chat_elsewhere_0001', asOther],
    ] as const) {
      const read = await t.request(`${ws}/chats/${id}`, { headers: who });
      expect(read.status).toBe(404);
      const readBody = await json(read);
      const created = await t.request(`${ws}/chats`, { json: { id, agentId: agent.id }, headers: who });
      expect(created.status).toBe(404);
      expect(await json(created)).toEqual(readBody);
      const streamed = await t.request(`${ws}/chat`, { json: { id, agentId: agent.id, message: userMessage(`u_${id}`, 'hello') }, headers: who });
      expect(streamed.status).toBe(404);
      expect(await json(streamed)).toEqual(readBody);
    }
    expect(await t.snapshot()).toBe(before);

    // One's own chat is a conflict, as before: it reveals nothing.
    const own = await t.request(`${ws}/chats`, { json: { id: 'chat_theirs_0001', agentId: agent.id }, headers: asOther });
    expect(own.status).toBe(409);
  });
});
