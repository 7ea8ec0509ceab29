import { startProviderSimulator, type ProviderSimulator } from '@baton/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_LIMIT_RESULT } from '@baton/delegation';
import { DEFAULT_MAX_TOOL_CALLS_PER_STEP, toolCallRefusedText } from '../src/agent/tool-call-limit';
import { postStream, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import type { StoredPart } from './support/messages';

// Issue 18 item 2: a model response with 1,000 tool calls took 21 s of one busy event loop
// (the message was deep-copied after every chunk), and nothing capped how many ran. Now the
// first BATON_MAX_TOOL_CALLS_PER_STEP (64) run, the others get an error result the model
// reads, and the server answers other requests meanwhile.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const FLOOD = 1_000;
const CAP = DEFAULT_MAX_TOOL_CALLS_PER_STEP;

let sim: ProviderSimulator;
let agentId: string;

beforeAll(async () => {
  // 1 ms between chunks: the response of 1,000 calls (2,000 chunks) lasts seconds.
  sim = await startProviderSimulator({ delayMs: 1, behaviour: { toolCallFlood: { count: FLOOD } } });
  const provider = await json(await t.request(`${ws}/providers`, { json: { name: 'Flood', baseUrl: sim.baseURL, apiKey: null, modelIds: ['sim-model'] } }));
  const agent = await json(
    await t.request(`${ws}/agents`, {
      json: { name: 'Clock', description: 'Tells the time', providerId: provider.id, modelId: 'sim-model', toolIds: ['currentTime'] },
    }),
  );
  agentId = agent.id;
});
afterAll(() => sim?.close());

const calls = (parts: StoredPart[]) => parts.filter((p) => p.type === 'tool-currentTime');

function expectCapped(parts: StoredPart[]) {
  const all = calls(parts);
  expect(all).toHaveLength(FLOOD);
  expect(all.filter((p) => p.state === 'output-available')).toHaveLength(CAP);
  const refused = all.filter((p) => p.state === 'output-error');
  expect(refused).toHaveLength(FLOOD - CAP);
  for (const p of refused) expect(p.errorText).toContain(toolCallRefusedText(CAP));
  // The first calls ran, the later ones were refused.
  expect(all.slice(0, CAP).every((p) => p.state === 'output-available')).toBe(true);
}

/** The tool results the provider was sent in the answer's second step: what the model reads. */
function toolResultsSent() {
  const second = sim.requests.at(-1) as { messages: { role: string; content: unknown }[] };
  return second.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

describe('a model response with 1,000 tool calls', () => {
  it('completes through REST: the first 64 run, the others get an error result the model reads', async () => {
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: 'What time is it? Ask a lot.' } });
    expect(res.status).toBe(200);
    const { messages } = await json(res);
    const answer = messages.at(-1);
    expectCapped(answer.parts);
    const sent = toolResultsSent();
    expect(sent).toHaveLength(FLOOD);
    expect(sent.filter((r) => r.includes(toolCallRefusedText(CAP)))).toHaveLength(FLOOD - CAP);
    // The model answered after reading them.
    expect(answer.parts.at(-1)).toMatchObject({ type: 'text', text: `Read ${FLOOD} tool results.` });
  }, 300_000);

  it('streams to the browser, and /api/health answers while the turn runs', async () => {
    const chatId = 'c_tool_flood_stream';
    const turn = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage('u_flood', 'What time is it? Ask a lot.') });
    let settled = false;
    void turn.finally(() => {
      settled = true;
    });
    // Health is asked again and again while the turn runs; at least one answer must come while it still runs.
    const answeredDuring: boolean[] = [];
    while (!settled) {
      const health = await fetch(`${t.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      answeredDuring.push(await t.isAnswering(chatId));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(answeredDuring.some(Boolean)).toBe(true);
    const read = await turn;
    expect(read.status).toBe(200);
    expect(read.chunks.filter((c) => c.type === 'tool-output-error')).toHaveLength(FLOOD - CAP);
    expect(read.chunks.filter((c) => c.type === 'tool-output-available')).toHaveLength(CAP);
    const { messages } = await json(await t.request(`${ws}/chats/${chatId}`));
    expectCapped(messages.at(-1).parts);
  }, 300_000);

  // The 500 lines took 293 s; 200 make the same three groups (the demo model then quotes every result, word by word).
  it('from the demo model: one message of 200 /delegate lines runs a batch of 10, the rest refused, and completes', async () => {
    const helper = await json(await t.request(`${ws}/agents`, { json: { name: 'Helper', description: 'Helps' } }));
    const lead = await json(await t.request(`${ws}/agents`, { json: { name: 'Lead', description: 'Leads', subAgentIds: [helper.id] } }));
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: lead.id } }));
    const lines = Array.from({ length: 200 }, (_, i) => `/delegate Helper: task ${i}`).join('\n');
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: lines } });
    expect(res.status).toBe(200);
    const { messages } = await json(res);
    const tasks = (messages.at(-1).parts as (StoredPart & { output?: { outcome?: string; result?: string } })[]).filter((p) => p.type === 'tool-newTask');
    expect(tasks).toHaveLength(200);
    // The delegation batch limit (10) below the cap (64): 10 sub-agents ran, 54 were refused as a batch, 136 by the cap.
    expect(tasks.slice(0, 10).every((p) => p.output?.outcome === 'success')).toBe(true);
    expect(tasks.slice(10, CAP).every((p) => p.output?.outcome === 'error' && p.output.result === BATCH_LIMIT_RESULT)).toBe(true);
    const refused = tasks.slice(CAP);
    expect(refused.every((p) => p.state === 'output-error' && p.errorText?.includes(toolCallRefusedText(CAP)))).toBe(true);
    const subChats = await json(await t.request(`${ws}/chats/${c.id}/sub-chats`));
    expect(subChats.data).toHaveLength(10);
  }, 300_000);
});
