import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postStream, runErrorOf, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const SECRET = 'sk-live-do-not-leak-123456';

// A provider that rejects every key and, like some real ones, echoes it in the error.
let rejectingUrl: string;
let closeRejecting: () => void;
beforeAll(async () => {
  const app = new Hono().post('/v1/chat/completions', (c) =>
    c.json({ error: { message: `Incorrect API key provided: ${c.req.header('authorization')?.replace('Bearer ', '')}` } }, 401),
  );
  await new Promise<void>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      rejectingUrl = `http://127.0.0.1:${info.port}/v1`;
      resolve();
    });
    closeRejecting = () => server.close();
  });
});
afterAll(() => closeRejecting?.());

async function agentWithProvider(baseUrl: string, modelId: string, apiKey: string | null) {
  const provider = await json(await t.request(`${ws}/providers`, { json: { name: `P ${modelId}`, baseUrl, apiKey, modelIds: [modelId] } }));
  return json(await t.request(`${ws}/agents`, { json: { name: `Uses ${provider.name}`, providerId: provider.id, modelId } }));
}

describe('agents on their own provider', () => {
  it('talk to the provider’s base URL and model through the OpenAI protocol', async () => {
    const agent = await agentWithProvider(t.demo.baseURL, 'baton-demo', 'any-key');
    const before = t.demo.requests.length;
    const read = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: `c_${Date.now()}`,
      agentId: agent.id,
      message: userMessage(`u_${Date.now()}`, 'hello provider'),
    });
    expect(textOf(read.chunks)).toContain('hello provider');
    expect(t.demo.requests.length).toBe(before + 1);
  });

  it('report a rejected key as a readable error without ever showing the key', async () => {
    const agent = await agentWithProvider(rejectingUrl, 'gpt-x', SECRET);
    const chatId = `c_${Date.now()}_k`;
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(`u_${Date.now()}_k`, 'hi') });
    expect(runErrorOf(read.chunks)?.message).toMatch(/rejected the API key \(HTTP 401\)/);
    expect(JSON.stringify(read.chunks)).not.toContain(SECRET);
    expect(await (await t.request(`${ws}/chats/${chatId}`)).text()).not.toContain(SECRET);
  });
});
