import { BATON_CHAT_ID_HEADER, type Chat } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { createApiKey } from './support/accounts';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// Chats started by programs (an API key: /v1 or the REST API) are marked as such, with the
// key's name, and the list can leave them out; a person's own chats stay `app`.
const t = useTestApp({ demoDelayMs: 1 });
const { client, agentNamed } = useOpenAiClient(t);
const ws = '/api/workspaces/default';

async function listed(query = ''): Promise<Chat[]> {
  const res = await t.request(`${ws}/chats?limit=100${query}`);
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

describe('where a chat was started', () => {
  it('marks a /v1 chat `api` with its key name, a session’s chat `app`, and filters the list by source', async () => {
    const assistant = await agentNamed('Assistant');
    const key = await createApiKey(t.anonymous, t.owner, 'default', 'Nightly report 🤖');
    const viaV1 = await client(key.key)
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'From a script' }] })
      .withResponse();
    const apiChatId = viaV1.response.headers.get(BATON_CHAT_ID_HEADER)!;

    const created = await t.request(`${ws}/chats`, { method: 'POST', json: { agentId: assistant.id, title: 'Mine' } });
    expect(created.status).toBe(201);
    const own = (await json(created)) as Chat;
    expect(own).toMatchObject({ source: 'app', apiKeyName: null });

    const read = (await json(await t.request(`${ws}/chats/${apiChatId}`))) as Chat;
    expect(read).toMatchObject({ source: 'api', apiKeyName: 'Nightly report 🤖' });

    const all = await listed();
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([apiChatId, own.id]));
    const appOnly = await listed('&source=app');
    expect(appOnly.map((c) => c.id)).toContain(own.id);
    expect(appOnly.every((c) => c.source === 'app')).toBe(true);
    const apiOnly = await listed('&source=api');
    expect(apiOnly.map((c) => c.id)).toEqual([apiChatId]);

    // The key is revoked: its chats keep the name they were started with.
    expect((await t.request(`${ws}/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await json(await t.request(`${ws}/chats/${apiChatId}`))).toMatchObject({ source: 'api', apiKeyName: 'Nightly report 🤖' });
  });

  it('marks chats the REST API starts with a key: POST …/chats and POST …/chat', async () => {
    const assistant = await agentNamed('Assistant');
    const key = await createApiKey(t.anonymous, t.owner, 'default', 'CI');
    const auth = { authorization: `Bearer ${key.key}`, cookie: '' };
    const created = await t.request(`${ws}/chats`, { method: 'POST', headers: auth, json: { agentId: assistant.id } });
    expect(created.status).toBe(201);
    expect(await json(created)).toMatchObject({ source: 'api', apiKeyName: 'CI' });

    const chatId = `chat_src_${Date.now().toString(36)}`;
    const streamed = await t.request(`${ws}/chat`, {
      method: 'POST',
      headers: auth,
      json: { id: chatId, agentId: assistant.id, message: { id: `${chatId}_m1`, role: 'user', parts: [{ type: 'text', text: 'Hello' }] } },
    });
    expect(streamed.status).toBe(200);
    await streamed.text();
    expect(await json(await t.request(`${ws}/chats/${chatId}`))).toMatchObject({ source: 'api', apiKeyName: 'CI' });

    // The owner's own browser turn, with the session: `app`.
    const ownId = `chat_src_own_${Date.now().toString(36)}`;
    const own = await t.request(`${ws}/chat`, {
      method: 'POST',
      json: { id: ownId, agentId: assistant.id, message: { id: `${ownId}_m1`, role: 'user', parts: [{ type: 'text', text: 'Hi' }] } },
    });
    await own.text();
    expect(await json(await t.request(`${ws}/chats/${ownId}`))).toMatchObject({ source: 'app', apiKeyName: null });
  });

  it('refuses an unknown source with a 400 naming it', async () => {
    const res = await t.request(`${ws}/chats?source=cron`);
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain('source');
  });
});
