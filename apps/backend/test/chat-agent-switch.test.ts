import { serve } from '@hono/node-server';
import { DEMO_MODEL_ID } from '@baton/demo-llm';
import { BATON_CHAT_ID_HEADER, type Chat } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { invitedAccount } from './support/accounts';
import { systemPrompt, toolNames } from './support/demo-model';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Switching a chat's agent or model (PATCH …/chats/:id { agentId, modelOverride }): the next
// turn runs as the new agent (its prompt, its model), the history stays, every answer records
// who wrote it, and nothing switches under an answer that is still under way.
const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const { client } = useOpenAiClient(t);

/**
 * A provider in front of the demo model that serves any model id: it records the model each
 * request asked for (and its system prompt), then lets the demo model answer. Requests wait
 * while `hold` is set, so a test can keep an answer running as long as it needs.
 */
const asked: { model: string; system: string; tools: string[] }[] = [];
let hold: Promise<void> | undefined;
let closeProxy = async () => {};
let proxyUrl = '';
beforeAll(async () => {
  const app = new Hono().post('*', async (c) => {
    const body = await c.req.json();
    asked.push({ model: body.model, system: systemPrompt(body), tools: toolNames(body) });
    await hold;
    return fetch(`${t.demo.baseURL}${c.req.path.replace(/^\/v1/, '')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, model: DEMO_MODEL_ID }),
    });
  });
  await new Promise<void>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      proxyUrl = `http://127.0.0.1:${info.port}/v1`;
      closeProxy = () => new Promise((done) => server.close(() => done()));
      resolve();
    });
  });
});
afterAll(() => closeProxy());

async function createAgent(name: string, body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  return json(res);
}
async function newChat(agentId: string): Promise<Chat> {
  const res = await t.request(`${ws}/chats`, { json: { agentId } });
  expect(res.status).toBe(201);
  return json(res);
}
const patch = (id: string, body: unknown, headers: Record<string, string> = {}) => t.request(`${ws}/chats/${id}`, { method: 'PATCH', json: body, headers });
async function turn(chatId: string, text: string) {
  const res = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const body = await json(res);
  return body.messages.at(-1) as { role: string; metadata: Record<string, unknown> };
}
const storedChat = async (id: string) => json(await t.request(`${ws}/chats/${id}`));

let providerId = '';
let openProviderId = '';
beforeAll(async () => {
  providerId = (await json(await t.request(`${ws}/providers`, { json: { name: 'Proxy', baseUrl: proxyUrl, apiKey: 'k', modelIds: ['small-1', 'large-1'] } })))
    .id;
  // A provider that lists no models passes any model id on.
  openProviderId = (await json(await t.request(`${ws}/providers`, { json: { name: 'Open proxy', baseUrl: proxyUrl, apiKey: 'k', modelIds: [] } }))).id;
});

describe('switching the agent of a chat', () => {
  it('the next turn runs as the new agent, with its prompt; the history stays and each answer names its writer', async () => {
    const alpha = await createAgent('Alpha', { systemPrompt: 'You are Alpha, who answers first.' });
    const beta = await createAgent('Beta', { systemPrompt: 'You are Beta, who answers second.' });
    const c = await newChat(alpha.id);
    const first = await turn(c.id, 'Hello Alpha 🦦');
    expect(first.metadata).toMatchObject({ agentId: alpha.id, agentName: 'Alpha', modelId: DEMO_MODEL_ID });
    expect(systemPrompt(t.demo.requests.at(-1)!)).toContain('You are Alpha');

    const switched = await patch(c.id, { agentId: beta.id });
    expect(switched.status).toBe(200);
    expect(await json(switched)).toMatchObject({ id: c.id, agentId: beta.id, modelOverride: null });

    const second = await turn(c.id, 'And now Beta?');
    const sent = t.demo.requests.at(-1)!;
    expect(systemPrompt(sent)).toContain('You are Beta');
    expect(systemPrompt(sent)).not.toContain('Alpha');
    // The history went with it: the first question and Alpha's answer reached Beta.
    expect(JSON.stringify(sent.messages)).toContain('Hello Alpha 🦦');
    expect(second.metadata).toMatchObject({ agentId: beta.id, agentName: 'Beta', modelId: DEMO_MODEL_ID });

    // Renaming an agent later does not rewrite who wrote what.
    await t.request(`${ws}/agents/${beta.id}`, { method: 'PATCH', json: { name: 'Beta Renamed' } });
    const stored = await storedChat(c.id);
    expect(stored.agentId).toBe(beta.id);
    expect(stored.messages.map((m: { role: string; metadata: { agentName?: string } | null }) => [m.role, m.metadata?.agentName ?? null])).toEqual([
      ['user', null],
      ['assistant', 'Alpha'],
      ['user', null],
      ['assistant', 'Beta'],
    ]);
    // Switching to the agent it has already is no change at all.
    const same = await patch(c.id, { agentId: beta.id });
    expect(await json(same)).toMatchObject({ agentId: beta.id, updatedAt: stored.updatedAt });
  });

  it('refuses another workspace’s agent and a missing one (404), another person’s chat (404), bad input (400), and writes nothing', async () => {
    const mine = await createAgent('Mine');
    const c = await newChat(mine.id);
    const side = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    const foreign = await json(await t.request(`/api/workspaces/${side.id}/agents`, { json: { name: 'Foreign' } }));
    const other = await invitedAccount(t.anonymous, t.owner, 'switcher@baton.test');
    const before = await t.snapshot();

    for (const agentId of [foreign.id, 'agent_missing']) {
      const res = await patch(c.id, { agentId });
      expect(res.status).toBe(404);
      expect((await json(res)).error).toMatchObject({ code: 'not_found', message: `Agent "${agentId}" was not found` });
    }
    // The chat is the owner's: another member of the workspace does not see it.
    expect((await patch(c.id, { agentId: mine.id }, { cookie: other.cookie })).status).toBe(404);
    for (const body of [
      { agentId: '' },
      { agentId: 'agent\u0000x' },
      { agentId: 42 },
      { modelOverride: '' },
      { modelOverride: 'a\u0000b' },
      { agentId: mine.id, nope: 1 },
    ]) {
      const res = await patch(c.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    expect(await t.snapshot()).toBe(before);
  });

  it('refuses a sub-chat: it belongs to its delegation', async () => {
    const helper = await createAgent('Helper');
    const boss = await createAgent('Boss', { subAgentIds: [helper.id] });
    const c = await newChat(boss.id);
    await turn(c.id, '/delegate Helper: count the otters');
    const { data: subChats } = await json(await t.request(`${ws}/chats/${c.id}/sub-chats`));
    expect(subChats).toHaveLength(1);
    const before = await t.snapshot();
    for (const body of [{ agentId: boss.id }, { modelOverride: null }]) {
      const res = await patch(subChats[0].id, body);
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toMatch(/belongs to its delegation/);
    }
    expect(await t.snapshot()).toBe(before);
  });

  it('refuses with 409 while an answer is running, and switches once it ended', async () => {
    const slow = await createAgent('Slow', { providerId, modelId: 'small-1' });
    const quick = await createAgent('Quick');
    const c = await newChat(slow.id);
    let release = () => {};
    hold = new Promise((resolve) => {
      release = resolve;
    });
    const answering = t.request(`${ws}/chats/${c.id}/messages`, { json: { text: 'Take your time' } });
    await waitFor('the answer to run', async () => ((await t.isAnswering(c.id)) ? true : undefined));
    for (const body of [{ agentId: quick.id }, { modelOverride: null }]) {
      const res = await patch(c.id, body);
      expect(res.status).toBe(409);
      expect((await json(res)).error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/answering/) });
    }
    // Renaming is not switching: it goes through while the answer runs.
    expect((await patch(c.id, { title: 'Renamed mid-answer' })).status).toBe(200);
    hold = undefined;
    release();
    expect((await answering).status).toBe(200);
    expect(await json(await patch(c.id, { agentId: quick.id }))).toMatchObject({ agentId: quick.id });
  });

  it('a switch and a turn at once: the turn runs as whichever agent the chat had when it was admitted', async () => {
    const one = await createAgent('Racer One', { systemPrompt: 'You are Racer One.' });
    const two = await createAgent('Racer Two', { systemPrompt: 'You are Racer Two.' });
    for (let i = 0; i < 4; i++) {
      const c = await newChat(one.id);
      const [switched, answered] = await Promise.all([
        patch(c.id, { agentId: two.id }),
        t.request(`${ws}/chats/${c.id}/messages`, { json: { text: `race ${i}` } }),
      ]);
      expect(answered.status).toBe(200);
      const answer = (await json(answered)).messages.at(-1);
      const stored = await storedChat(c.id);
      if (switched.status === 200) {
        expect(stored.agentId).toBe(two.id);
      } else {
        // Refused only because the answer was running: then the answer is Racer One's and the chat still is.
        expect(switched.status).toBe(409);
        expect(stored.agentId).toBe(one.id);
        expect(answer.metadata.agentId).toBe(one.id);
      }
      expect([one.id, two.id]).toContain(answer.metadata.agentId);
    }
  });

  it('a switch and a delete of the agent at once: one wins, nothing dangles, nothing fails (on Postgres: no deadlock)', async () => {
    const stay = await createAgent('Stayer');
    for (let i = 0; i < 4; i++) {
      // Switching to an agent being deleted: switched (then unset by the delete) or 404.
      const target = await createAgent(`Doomed ${i}`);
      const c = await newChat(stay.id);
      const [switched, deleted] = await Promise.all([patch(c.id, { agentId: target.id }), t.request(`${ws}/agents/${target.id}`, { method: 'DELETE' })]);
      expect(deleted.status).toBe(204);
      expect([200, 404]).toContain(switched.status);
      expect((await storedChat(c.id)).agentId).toBe(switched.status === 200 ? null : stay.id);

      // A model chosen for a chat whose agent is being deleted: chosen, or refused as the chat has no agent.
      const doomed = await createAgent(`Doomed flex ${i}`, { providerId: openProviderId, modelId: 'any-1', allowModelOverride: true });
      const d = await newChat(doomed.id);
      const [chosen, gone] = await Promise.all([patch(d.id, { modelOverride: 'other-1' }), t.request(`${ws}/agents/${doomed.id}`, { method: 'DELETE' })]);
      expect(gone.status).toBe(204);
      expect([200, 400]).toContain(chosen.status);
      expect((await storedChat(d.id)).agentId).toBeNull();
    }
  });

  it('a budget is the new root agent’s: switching to a thrifty agent stops its delegation within its budget', async () => {
    const worker = await createAgent('Budget Worker');
    const plain = await createAgent('Plain Lead', { subAgentIds: [worker.id] });
    const thrifty = await createAgent('Thrifty Lead', { subAgentIds: [worker.id], delegation: { maxTokensPerDelegation: 1500 } });
    const c = await newChat(plain.id);
    await turn(c.id, 'hello');
    await patch(c.id, { agentId: thrifty.id });
    const answer = await turn(c.id, '/delegate Budget Worker: [demo:work 50] survey the river banks');
    const call = (answer as unknown as { parts: { type: string; output?: { outcome: string } }[] }).parts.find((p) => p.type === 'tool-newTask');
    expect(call?.output?.outcome).toBe('budget_exhausted');
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, c.id));
    expect(sub!.inputTokens + sub!.outputTokens).toBeLessThanOrEqual(1500);
    // The chat's usage counts the delegation as before.
    expect((await storedChat(c.id)).usage.delegated.inputTokens).toBeGreaterThan(0);
  });
});

describe('a per-chat model', () => {
  it('for an agent that allows it: a model of its provider, used by the next turns and recorded on the answer; null goes back', async () => {
    const flex = await createAgent('Flex', { providerId, modelId: 'small-1', allowModelOverride: true, systemPrompt: 'You are Flex.' });
    const c = await newChat(flex.id);
    const res = await patch(c.id, { modelOverride: 'large-1' });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ agentId: flex.id, modelOverride: 'large-1' });
    const answer = await turn(c.id, 'Which model?');
    expect(asked.at(-1)).toMatchObject({ model: 'large-1', system: expect.stringContaining('You are Flex') });
    expect(answer.metadata).toMatchObject({ agentName: 'Flex', modelId: 'large-1' });

    await patch(c.id, { modelOverride: null });
    expect((await turn(c.id, 'And now?')).metadata).toMatchObject({ modelId: 'small-1' });
    expect(asked.at(-1)!.model).toBe('small-1');

    // An agent that stops allowing it answers with its own model again, whatever the chat holds.
    await patch(c.id, { modelOverride: 'large-1' });
    await t.request(`${ws}/agents/${flex.id}`, { method: 'PATCH', json: { allowModelOverride: false } });
    expect((await turn(c.id, 'Still large?')).metadata).toMatchObject({ modelId: 'small-1' });
  });

  it('refuses a model the provider does not list, an agent that does not allow it, the default model; a provider without a list takes any', async () => {
    const flex = await createAgent('Flex Two', { providerId, modelId: 'small-1', allowModelOverride: true });
    const fixed = await createAgent('Fixed', { providerId, modelId: 'small-1' });
    const onDefault = await createAgent('On Default', { allowModelOverride: true });
    const open = await createAgent('Open', { providerId: openProviderId, modelId: 'any-1', allowModelOverride: true });
    const cases: [string, string, RegExp][] = [
      [flex.id, 'gpt-nope', /"gpt-nope" is not a model of the agent's provider \(small-1, large-1\)/],
      [fixed.id, 'large-1', /does not allow choosing its model per chat/],
      [onDefault.id, 'large-1', /answers with the default model/],
    ];
    for (const [agentId, modelOverride, reason] of cases) {
      const c = await newChat(agentId);
      const before = await t.snapshot();
      const res = await patch(c.id, { modelOverride });
      expect(res.status).toBe(400);
      const { error } = await json(res);
      expect(error.message).toMatch(reason);
      expect(error.details).toEqual([{ path: ['modelOverride'], message: expect.any(String) }]);
      expect(await t.snapshot()).toBe(before);
    }
    const c = await newChat(open.id);
    expect(await json(await patch(c.id, { modelOverride: ' otter-🦦-7b ' }))).toMatchObject({ modelOverride: 'otter-🦦-7b' });
    expect((await turn(c.id, 'hi')).metadata).toMatchObject({ modelId: 'otter-🦦-7b' });
    expect(asked.at(-1)!.model).toBe('otter-🦦-7b');
  });

  it('a new agent clears the override unless one comes with it (checked against the new agent)', async () => {
    const flex = await createAgent('Flex Three', { providerId, modelId: 'small-1', allowModelOverride: true });
    const plain = await createAgent('Plain Three');
    const c = await newChat(flex.id);
    await patch(c.id, { modelOverride: 'large-1' });
    expect(await json(await patch(c.id, { agentId: plain.id }))).toMatchObject({ agentId: plain.id, modelOverride: null });
    expect((await patch(c.id, { agentId: flex.id, modelOverride: 'nope' })).status).toBe(400);
    expect(await json(await patch(c.id, { agentId: flex.id, modelOverride: 'large-1' }))).toMatchObject({ agentId: flex.id, modelOverride: 'large-1' });
    // A turn that names another agent (the stream request's agentId) switches too, and so clears it.
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: 'switch by message', agentId: plain.id } });
    expect(res.status).toBe(200);
    expect(await storedChat(c.id)).toMatchObject({ agentId: plain.id, modelOverride: null });
  });

  it('delegation: sub-agents keep their own agent and model while the parent answers with the chat’s model', async () => {
    const scout = await createAgent('Scout', { providerId, modelId: 'small-1' });
    const chief = await createAgent('Chief', { providerId, modelId: 'small-1', allowModelOverride: true, subAgentIds: [scout.id] });
    const c = await newChat(chief.id);
    await patch(c.id, { modelOverride: 'large-1' });
    const from = asked.length;
    const answer = await turn(c.id, '/delegate Scout: find three otters');
    const calls = asked.slice(from);
    const bySubAgent = calls.filter((r) => r.tools.includes('taskResult'));
    const byParent = calls.filter((r) => !r.tools.includes('taskResult'));
    expect(bySubAgent.length).toBeGreaterThan(0);
    expect(new Set(bySubAgent.map((r) => r.model))).toEqual(new Set(['small-1']));
    expect(new Set(byParent.map((r) => r.model))).toEqual(new Set(['large-1']));
    expect(answer.metadata).toMatchObject({ agentName: 'Chief', modelId: 'large-1' });
    const { data: subChats } = await json(await t.request(`${ws}/chats/${c.id}/sub-chats`));
    const sub = await storedChat(subChats[0].id);
    expect(sub.modelOverride).toBeNull();
    expect(sub.messages.at(-1).metadata).toMatchObject({ agentId: scout.id, agentName: 'Scout', modelId: 'small-1' });
  });
});

describe('answers over /v1 record their writer too', () => {
  it('agent id, name and model on the stored answer', async () => {
    const v1 = await createAgent('Over V1');
    const { response } = await client()
      .chat.completions.create({ model: v1.id, messages: [{ role: 'user', content: 'Hello over /v1' }] })
      .withResponse();
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    const stored = await storedChat(chatId);
    expect(stored.messages.at(-1).metadata).toMatchObject({ agentId: v1.id, agentName: 'Over V1', modelId: DEMO_MODEL_ID });
  });
});
