import { createDemoLlmApp } from '@baton/demo-llm';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { postStream, textOf, userMessage } from './support/chat-client';
import { jsonError } from './support/provider-stub';
import { json, useTestApp } from './support/test-app';

// A provider that fails its first calls (a 503 the AI SDK retries, or a 400 it does not),
// then answers as the demo model: the person is told about each retry while it happens.
const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true });
const ws = '/api/workspaces/default';
let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

const servers: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function flakyAgent(failures: number, status = 503) {
  const demo = createDemoLlmApp({ delayMs: 1 });
  const calls = { count: 0 };
  const app = new Hono().post('*', async (c) => {
    calls.count++;
    if (calls.count <= failures) return jsonError(status, 'the provider is overloaded');
    return demo.fetch(c.req.raw);
  });
  const baseURL = await new Promise<string>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      servers.push({ close: () => new Promise((done) => server.close(() => done())) });
      resolve(`http://127.0.0.1:${info.port}/v1`);
    });
  });
  const provider = await json(
    await t.request(`${ws}/providers`, { json: { name: `Flaky ${uid('p')}`, baseUrl: baseURL, apiKey: null, modelIds: ['baton-demo'] } }),
  );
  const agent = await json(await t.request(`${ws}/agents`, { json: { name: `Flaky ${uid('a')}`, providerId: provider.id, modelId: 'baton-demo' } }));
  return { agent, calls };
}

const retriesOf = (chunks: { type: string }[]) => chunks.filter((c) => c.type === 'data-run-retry') as unknown as { data: unknown; transient?: boolean }[];

async function storedAnswer(chatId: string) {
  const full = await json(await t.request(`${ws}/chats/${chatId}`));
  return full.messages.at(-1) as { role: string; parts: { type: string }[] };
}

describe('a provider that fails and is retried', () => {
  it('streams a transient "retrying (2/3)" before the retry, then the answer; nothing of it is stored', async () => {
    const { agent, calls } = await flakyAgent(1);
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'hello there') });
    expect(read.status).toBe(200);
    expect(calls.count).toBe(2);
    const retries = retriesOf(read.chunks);
    expect(retries).toEqual([
      // No Retry-After: the AI SDK's first backoff, 2 s, is the wait the notice announces.
      { type: 'data-run-retry', transient: true, data: { attempt: 2, maxAttempts: 3, message: expect.stringContaining('HTTP 503'), retryInMs: 2000 } },
      // The second attempt got through: the notice can go.
      { type: 'data-run-retry', transient: true, data: { attempt: 2, maxAttempts: 3, message: '', recovered: true } },
    ]);
    // The notice came before the answer's first word.
    const types = read.chunks.map((c) => c.type);
    expect(types.indexOf('data-run-retry')).toBeLessThan(types.indexOf('text-delta'));
    expect(textOf(read.chunks)).toContain('hello there');
    const answer = await storedAnswer(chatId);
    expect(answer.role).toBe('assistant');
    expect(answer.parts.map((p) => p.type)).not.toContain('data-run-retry');
  });

  it('tells each retry, then the failure when the provider never answers', async () => {
    const { agent, calls } = await flakyAgent(10);
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'anyone?') });
    expect(calls.count).toBe(3);
    expect(retriesOf(read.chunks).map((r) => r.data)).toEqual([expect.objectContaining({ attempt: 2 }), expect.objectContaining({ attempt: 3 })]);
    expect(retriesOf(read.chunks).some((r) => (r.data as { recovered?: boolean }).recovered)).toBe(false);
    expect(read.chunks.some((c) => c.type === 'data-run-error')).toBe(true);
  }, 20_000);

  it('does not announce a retry for an error the SDK does not retry (HTTP 400)', async () => {
    const { agent, calls } = await flakyAgent(1, 400);
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId: agent.id, message: userMessage(uid('u'), 'hi') });
    expect(calls.count).toBe(1);
    expect(retriesOf(read.chunks)).toEqual([]);
    expect(read.chunks.some((c) => c.type === 'data-run-error')).toBe(true);
  });
});
