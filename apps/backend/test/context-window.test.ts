import { estimatePromptTokens, startProviderSimulator } from '@baton/provider-sim';
import type { ContextTrimmed } from '@baton/schemas';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { json, useTestApp } from './support/test-app';

// Context windows against a provider that enforces them (the simulator answers OpenAI's 400
// context_length_exceeded when a prompt is over its window), over HTTP, through Baton's real
// client: what Baton sends must fit, and a refusal must say what to do.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';

type WireMessage = { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };
type WireRequest = { model: string; messages: WireMessage[]; tools?: unknown[] };

let sim: Awaited<ReturnType<typeof startProviderSimulator>>;
beforeAll(async () => {
  sim = await startProviderSimulator({
    delayMs: 1,
    models: {
      // OpenRouter's and LM Studio's field, and vLLM's.
      'chat-2k': { contextWindow: 2_000 },
      'worker-3k': { contextWindow: 3_000, modelsListField: 'max_model_len' },
      // Served with a smaller window than the one Baton is told.
      'really-1k': { contextWindow: 1_000 },
    },
  });
});
afterAll(() => sim?.close());

const requestsFor = (model: string) => (sim.requests as WireRequest[]).filter((r) => r.model === model);

/** What every request to a windowed model must be: under the window, with its system prompt, no tool call without its result or result without its call. */
function expectFitting(request: WireRequest, window: number) {
  expect(estimatePromptTokens(request as Parameters<typeof estimatePromptTokens>[0])).toBeLessThanOrEqual(window);
  expect(request.messages[0]?.role).toBe('system');
  request.messages.forEach((m, i) => {
    if (m.role === 'tool') {
      const call = request.messages.slice(0, i).findLast((p) => p.role === 'assistant');
      expect(call?.tool_calls?.map((c) => c.id)).toContain(m.tool_call_id);
    }
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const results = request.messages.slice(i + 1).filter((_, j, rest) => rest.slice(0, j + 1).every((r) => r.role === 'tool'));
      expect(results.map((r) => r.tool_call_id).sort()).toEqual(m.tool_calls.map((c) => c.id).sort());
    }
  });
}

async function providerFromTest(name: string, modelIds: string[]) {
  const tested = await json(await t.request(`${ws}/providers/test`, { json: { baseUrl: sim.baseURL, apiKey: null } }));
  expect(tested.ok).toBe(true);
  // What the provider form saves after "Test connection": the picked models and the windows the list reported.
  const contextWindows = Object.fromEntries(modelIds.flatMap((id) => (tested.contextWindows?.[id] ? [[id, tested.contextWindows[id]]] : [])));
  const res = await t.request(`${ws}/providers`, { json: { name, baseUrl: sim.baseURL, apiKey: null, modelIds, contextWindows } });
  expect(res.status).toBe(201);
  return json(res);
}

async function createAgent(name: string, body: Record<string, unknown>) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  return json(res);
}

type StoredAnswer = { parts: { type: string; text?: string; output?: unknown; data?: { message: string } }[]; metadata: { contextTrimmed?: ContextTrimmed } };

async function say(chatId: string, text: string): Promise<StoredAnswer> {
  const res = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  return (await json(res)).messages.at(-1);
}

const padding = (turn: number) => `Turn ${turn}: ${'the otters keep a careful ledger of every pebble they find. '.repeat(20)}`;

describe('context windows', () => {
  it('reads each model’s window from the provider’s model list, as context_length or as max_model_len', async () => {
    const tested = await json(await t.request(`${ws}/providers/test`, { json: { baseUrl: sim.baseURL, apiKey: null } }));
    expect(tested).toMatchObject({ ok: true, contextWindows: { 'chat-2k': 2_000, 'worker-3k': 3_000, 'really-1k': 1_000 } });
    // sim-model reports none: no entry, so it gets the default.
    expect(tested.contextWindows['sim-model']).toBeUndefined();
    const provider = await providerFromTest('Windows', ['chat-2k', 'worker-3k']);
    expect(provider.contextWindows).toEqual({ 'chat-2k': 2_000, 'worker-3k': 3_000 });
    expect((await json(await t.request(`${ws}/providers/${provider.id}`))).contextWindows).toEqual(provider.contextWindows);
  });

  it('a long chat is trimmed to the window, oldest turns first, and every answer succeeds', async () => {
    const provider = await providerFromTest('Small window', ['chat-2k']);
    const agent = await createAgent('Small talker', { providerId: provider.id, modelId: 'chat-2k', toolIds: ['calculator'] });
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    const before = requestsFor('chat-2k').length;
    let last: StoredAnswer | undefined;
    for (let turn = 1; turn <= 6; turn++) {
      // Every other turn calls a tool, so the history holds call/result pairs to keep together.
      const text = turn % 2 ? `/tool calculator {"expression":"${turn} * 7"}\n${padding(turn)}` : padding(turn);
      last = await say(c.id, text);
      expect(last.parts.some((p) => p.type === 'data-run-error')).toBe(false);
      expect(last.parts.some((p) => p.type === 'text' && p.text)).toBe(true);
    }
    const sent = requestsFor('chat-2k').slice(before);
    for (const request of sent) expectFitting(request, 2_000);
    const final = sent.at(-1)!;
    expect(JSON.stringify(final.messages.findLast((m) => m.role === 'user')?.content)).toContain('Turn 6:');
    expect(JSON.stringify(final.messages)).not.toContain('Turn 1:');
    // The chat says so, on the answer itself (stored).
    const trimmed = last?.metadata.contextTrimmed;
    expect(trimmed).toMatchObject({ contextWindow: 2_000 });
    expect(trimmed!.sentMessages).toBeLessThan(trimmed!.totalMessages);
  });

  it('a sub-agent of 100 steps with a small window keeps working to its step limit instead of dying of its transcript', { timeout: 180_000 }, async () => {
    const provider = await providerFromTest('Worker window', ['worker-3k']);
    const worker = await createAgent('Long worker', { providerId: provider.id, modelId: 'worker-3k' });
    const lead = await createAgent('Long lead', { subAgentIds: [worker.id] });
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: lead.id } }));
    const before = requestsFor('worker-3k').length;
    const answer = await say(c.id, '/delegate Long worker: [demo:work 100] count the otters');
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, c.id)).orderBy(asc(chat.createdAt));
    // 100 steps of notes, then the step limit's partial result: not an error.
    expect(sub).toMatchObject({ outcome: 'step_limit' });
    const output = answer.parts.find((p) => p.type === 'tool-newTask')?.output;
    expect(output).toMatchObject({ outcome: 'step_limit', subChatId: sub!.id });
    const sent = requestsFor('worker-3k').slice(before);
    // 100 steps and the partial-result call, every one under the window, every one with the task.
    expect(sent).toHaveLength(101);
    for (const request of sent) {
      expectFitting(request, 3_000);
      expect(JSON.stringify(request.messages)).toContain('[demo:work 100] count the otters');
    }
    const stored = await json(await t.request(`${ws}/chats/${sub!.id}`));
    expect(stored.messages.at(-1).metadata.contextTrimmed).toMatchObject({ contextWindow: 3_000 });
  });

  it('a provider’s context-length refusal says what to do, with the limit the provider named', async () => {
    // Baton was told 50,000; the model is served with 1,000.
    const res = await t.request(`${ws}/providers`, {
      json: { name: 'Told wrong', baseUrl: sim.baseURL, apiKey: null, modelIds: ['really-1k'], contextWindows: { 'really-1k': 50_000 } },
    });
    const agent = await createAgent('Misinformed', { providerId: (await json(res)).id, modelId: 'really-1k' });
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    const answer = await say(c.id, padding(1).repeat(8));
    const error = answer.parts.find((p) => p.type === 'data-run-error')?.data;
    expect(error?.message).toBe(
      'The conversation is too long for model really-1k: the provider allows 1,000 tokens, and Baton assumed 50,000 tokens. ' +
        'Set the model’s context window in Settings → Providers to 1,000, so Baton leaves older messages out, or start a new chat.',
    );
  });
});
