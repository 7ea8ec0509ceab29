// Remote A2A agents as sub-agents, in the server (REST) flow: a scripted agent built with
// @a2a-js/sdk's server runs on a loopback port (allowed here as BATON_ALLOW_PRIVATE_URLS
// allows it), and Baton delegates to it through @a2a-js/sdk's client and its guarded fetch.
import { startA2AAgentSim, type A2AAgentSim } from '@baton/a2a-agent-sim';
import { TaskState } from '@a2a-js/sdk';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent as agentTable, chat } from '../src/db/schema';
import { withStatus } from './support/fixtures';
import type { StoredPart } from './support/messages';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true, a2aTimeoutMs: 3_000 });
const ws = '/api/workspaces/default';
let sim: A2AAgentSim;
let lead: { id: string };
let remote: { id: string };

beforeAll(async () => {
  sim = await startA2AAgentSim({ stepMs: 40, requireHeader: { name: 'Authorization', value: 'Bearer sim-token' } });
  const created = await t.request(`${ws}/agents`, {
    json: { name: 'Remote', description: 'A remote A2A agent', remote: { cardUrl: sim.url, headers: { Authorization: 'Bearer sim-token' } } },
  });
  expect(created.status).toBe(201);
  remote = await json(created);
  lead = await json(await t.request(`${ws}/agents`, { json: { name: 'Lead', subAgentIds: [remote.id] } }));
});
afterAll(() => sim?.close());

const newChat = async () => json(await t.request(`${ws}/chats`, { json: { agentId: lead.id } }));

async function delegate(task: string) {
  const parent = await newChat();
  const turn = t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: `/delegate Remote: ${task}` } });
  return { parent, turn };
}

const runningSubChat = (parentId: string) =>
  waitFor('a running sub-chat', async () => {
    const { data } = await json(await t.request(`${ws}/chats/${parentId}/sub-chats`));
    return data.find((s: { status: string }) => s.status === 'running');
  });

describe('a remote agent', () => {
  it('is stored with its card URL and header names; header values never come back and are encrypted at rest', async () => {
    const got = await json(await t.request(`${ws}/agents/${remote.id}`));
    expect(got.remote).toEqual({ cardUrl: sim.url, headerNames: ['Authorization'] });
    expect(JSON.stringify(got)).not.toContain('sim-token');
    const [row] = await t.handle.db.select().from(agentTable).where(eq(agentTable.id, remote.id));
    expect(row!.remoteHeaders).toBeTruthy();
    expect(row!.remoteHeaders).not.toContain('sim-token');
    // No prompt, model or sub-agents of its own.
    const refused = await t.request(`${ws}/agents`, { json: { name: 'Bad remote', systemPrompt: 'Be nice', remote: { cardUrl: sim.url } } });
    expect(refused.status).toBe(400);
    expect((await json(refused)).error.message).toContain('systemPrompt');
  });

  it('shows its card (name, skills) with the stored headers, and why a card cannot be read', async () => {
    const card = await json(await t.request(`${ws}/agents/remote-card`, { json: { cardUrl: sim.cardUrl, agentId: remote.id } }));
    expect(card).toMatchObject({ ok: true, card: { name: 'Scripted Remote Agent', streaming: true } });
    expect(card.card.skills.map((s: { name: string }) => s.name)).toEqual(['Answer questions', 'Ask back']);
    const noHeaders = await json(await t.request(`${ws}/agents/remote-card`, { json: { cardUrl: sim.cardUrl } }));
    expect(noHeaders).toEqual({ ok: false, message: expect.stringContaining('HTTP 401') });
  });

  it('takes a delegated task over A2A: status messages in the sub-chat, the artifact as the result, usage unknown', async () => {
    const { turn } = await delegate('facts about otters');
    const res = await turn;
    expect(res.status).toBe(200);
    const answer = (await json(res)).messages.at(-1);
    const call = answer.parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({
      status: 'success',
      outcome: 'success',
      result: 'Remote answer: facts about otters',
      usage: { inputTokens: 0, outputTokens: 0, unknown: true },
    });
    const sub = await json(await t.request(`${ws}/chats/${call.output.subChatId}`));
    expect(sub.usage.total).toMatchObject({ inputTokens: 0, outputTokens: 0, unknown: true });
    const texts = sub.messages
      .at(-1)
      .parts.filter((p: StoredPart) => p.type === 'text')
      .map((p: StoredPart) => p.text);
    expect(texts).toEqual(['Working on: facts about otters', 'Writing the answer', 'Remote answer: facts about otters']);
    const [row] = await t.handle.db.select().from(chat).where(eq(chat.id, call.output.subChatId));
    expect(withStatus(row!)).toMatchObject({ status: 'success', delegateResult: 'Remote answer: facts about otters' });
    expect(sim.headersSeen.get('authorization')?.every((v) => v === 'Bearer sim-token')).toBe(true);
  });

  it('answers the same over /v1 (an OpenAI client’s turn delegates on the server)', async () => {
    const res = await t.request('/v1/chat/completions', {
      headers: { authorization: `Bearer ${t.owner.apiKey}`, cookie: '' },
      json: { model: lead.id, messages: [{ role: 'user', content: '/delegate Remote: facts about owls' }] },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).choices[0].message.content).toContain('Remote answer: facts about owls');
  });

  it('cancels the remote task when the sub-chat is stopped', async () => {
    const { parent, turn } = await delegate('a slow survey');
    const sub = await runningSubChat(parent.id);
    await waitFor('the remote task to work', async () => (sim.log.received.includes('a slow survey') ? true : undefined));
    const stop = await t.request(`${ws}/chats/${sub.id}/stop`, { method: 'POST' });
    expect(stop.status).toBe(200);
    const call = (await json(await turn)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ outcome: 'cancelled', subChatId: sub.id });
    await waitFor('the remote task’s cancel', async () => (sim.log.cancelRequests.length === 1 ? true : undefined));
    await waitFor('the remote task to be cancelled', async () =>
      sim.log.states.get(sim.log.cancelRequests[0]!) === TaskState.TASK_STATE_CANCELED ? true : undefined,
    );
  });

  it('answers input-required with the person’s steering message, sent to the same task', async () => {
    const { parent, turn } = await delegate('ask me a report');
    const sub = await runningSubChat(parent.id);
    await waitFor('the question', async () => {
      const stored = await json(await t.request(`${ws}/chats/${sub.id}`));
      const texts = (stored.messages.at(-1)?.parts ?? []).filter((p: StoredPart) => p.type === 'text').map((p: StoredPart) => p.text);
      return texts.includes('Which format should the answer have?') ? true : undefined;
    });
    expect((await t.request(`${ws}/chats/${sub.id}/messages`, { json: { text: 'a table' } })).status).toBe(202);
    const call = (await json(await turn)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ outcome: 'success', result: 'Remote answer: ask me a report (format: a table)' });
    const stored = await json(await t.request(`${ws}/chats/${sub.id}`));
    expect(stored.messages.at(-1).parts.find((p: StoredPart) => p.type === 'steering-message')).toMatchObject({ parts: [{ type: 'text', text: 'a table' }] });
    const { data } = await json(await t.request(`${ws}/chats/${sub.id}/steering`));
    expect(data[0]).toMatchObject({ text: 'a table', status: 'delivered' });
  });

  it('gives an error outcome with the reason when the task fails or the agent cannot be reached', async () => {
    const failed = await json(await (await delegate('this will fail')).turn);
    const failedCall = failed.messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(failedCall.output).toMatchObject({ status: 'error', outcome: 'error', result: expect.stringContaining('The scripted agent failed on purpose.') });

    const gone = await startA2AAgentSim({});
    await gone.close();
    const unreachable = await json(await t.request(`${ws}/agents`, { json: { name: 'Gone', remote: { cardUrl: gone.cardUrl } } }));
    const boss = await json(await t.request(`${ws}/agents`, { json: { name: 'Boss', subAgentIds: [unreachable.id] } }));
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: boss.id } }));
    const res = await json(await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/delegate Gone: anything' } }));
    const call = res.messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ status: 'error', outcome: 'error', result: expect.stringContaining('could not be reached') });
  });
});
