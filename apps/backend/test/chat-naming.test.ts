import { serve } from '@hono/node-server';
import { demoLlmFetch } from '@baton/demo-llm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

/*
 * A model-written title when a real default model is configured (OPENAI_API_KEY): here a
 * provider on loopback that writes titles itself and passes every other request to the demo
 * model, so the answers and delegations are the demo model's own.
 */
type TitleMode = 'answer' | 'fail' | 'hold';
let mode: TitleMode = 'answer';
let releaseHeld: () => void = () => {};
const titleRequests: string[] = [];
let closeStub: () => Promise<void> = async () => {};

async function startTitleWritingProvider(): Promise<string> {
  const app = new Hono().post('/v1/chat/completions', async (c) => {
    const body = (await c.req.json()) as { messages: { role: string; content: unknown }[] };
    const system = body.messages.find((m) => m.role === 'system');
    if (typeof system?.content === 'string' && system.content.startsWith('Write a short title')) {
      titleRequests.push(String(body.messages.at(-1)?.content));
      if (mode === 'fail') return c.json({ error: { message: 'title service down', type: 'server_error' } }, 500);
      if (mode === 'hold') await new Promise<void>((resolve) => (releaseHeld = resolve));
      return c.json({
        id: 'chatcmpl-title',
        object: 'chat.completion',
        created: 0,
        model: 'baton-demo',
        choices: [{ index: 0, message: { role: 'assistant', content: '"Otter Facts, Briefly."' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
      });
    }
    return demoLlmFetch('http://demo-llm.internal/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      closeStub = () => new Promise((done) => server.close(() => done()));
      resolve(`http://127.0.0.1:${info.port}/v1`);
    });
  });
}

const t = useTestApp({
  defaultModel: async () => ({ kind: 'openai', apiKey: 'sk-test-title', baseURL: await startTitleWritingProvider(), modelId: 'baton-demo' }),
});
afterAll(() => closeStub());
const ws = '/api/workspaces/default';
let leadId: string;

beforeAll(async () => {
  const helper = await json(await t.request(`${ws}/agents`, { json: { name: 'Title helper', description: 'Helps.' } }));
  leadId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Title lead', subAgentIds: [helper.id] } }))).id;
});

async function ask(text: string, chatId?: string) {
  const id = chatId ?? (await json(await t.request(`${ws}/chats`, { json: { agentId: leadId } }))).id;
  const res = await t.request(`${ws}/chats/${id}/messages`, { json: { text } });
  expect(res.status, await res.clone().text()).toBe(200);
  return id as string;
}
const titleOf = async (id: string) => (await json(await t.request(`${ws}/chats/${id}`))).title as string;

describe('a model-written chat title', () => {
  it('replaces the first line once the model writes it (quotes and full stop off), once per chat, never for sub-chats', async () => {
    mode = 'answer';
    titleRequests.length = 0;
    const id = await ask('# Tell me *three* facts about otters\n/delegate Title helper: find otter facts');
    await waitFor('the model-written title', async () => ((await titleOf(id)) === 'Otter Facts, Briefly' ? true : undefined));
    // The model was given the first message as it was written.
    expect(titleRequests).toEqual(['# Tell me *three* facts about otters\n/delegate Title helper: find otter facts']);
    await ask('and about beavers?', id);
    expect(titleRequests).toHaveLength(1);
    const subChats = (await json(await t.request(`${ws}/chats/${id}/sub-chats`))).data;
    expect(subChats).toHaveLength(1);
    expect(subChats[0].title).toBe('Title helper: find otter facts');
  });

  it('keeps the first line when the model fails; the answer is not affected', async () => {
    mode = 'fail';
    const id = await ask('Where do otters sleep? 🦦');
    const chat = await json(await t.request(`${ws}/chats/${id}`));
    expect(chat.messages).toHaveLength(2);
    await waitFor('the failed title request', async () => (titleRequests.at(-1) === 'Where do otters sleep? 🦦' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await titleOf(id)).toBe('Where do otters sleep? 🦦');
  });

  it('never overwrites a name the person gave the chat meanwhile', async () => {
    mode = 'hold';
    const id = await ask('What do otters eat?');
    await waitFor('the held title request', async () => (titleRequests.at(-1) === 'What do otters eat?' ? true : undefined)).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(titleRequests)}`);
    });
    expect((await t.request(`${ws}/chats/${id}`, { method: 'PATCH', json: { title: 'My otter notes' } })).status).toBe(200);
    releaseHeld();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await titleOf(id)).toBe('My otter notes');
  });
});
