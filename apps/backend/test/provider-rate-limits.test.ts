import { startProviderSimulator, type ProviderSimulator, type SimBehaviour } from '@baton/provider-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_BACKOFF_MESSAGE } from '../src/agent/model-retries';
import { postStream, runErrorOf, textOf, userMessage, type StreamRead } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// Real providers answer 429 with Retry-After (seconds, an HTTP date, or OpenAI's
// retry-after-ms), and models that cannot take tools answer 400. The simulated provider
// does both over HTTP; Baton waits what it is asked within the retry budget (3 attempts,
// 60 s of waiting), says so while it waits, and names the agent and the model that cannot
// take tools.
const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true });
const ws = '/api/workspaces/default';
let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

const sims: ProviderSimulator[] = [];
afterAll(async () => {
  for (const s of sims) await s.close();
});

async function simAgent(behaviour: SimBehaviour, opts: { modelId?: string; toolIds?: string[]; name?: string } = {}) {
  const sim = await startProviderSimulator({ delayMs: 1, behaviour });
  sims.push(sim);
  const modelId = opts.modelId ?? 'sim-model';
  const provider = await json(await t.request(`${ws}/providers`, { json: { name: uid('Sim'), baseUrl: sim.baseURL, apiKey: null, modelIds: [modelId] } }));
  const res = await t.request(`${ws}/agents`, {
    json: { name: opts.name ?? uid('Agent'), description: 'simulated', providerId: provider.id, modelId, toolIds: opts.toolIds ?? [] },
  });
  expect(res.status).toBe(201);
  return { sim, agent: await json(res) };
}

type Retry = { attempt: number; maxAttempts: number; message: string; retryInMs?: number; rateLimited?: boolean; recovered?: boolean };
const retriesOf = (read: StreamRead) => read.chunks.filter((c) => c.type === 'data-run-retry').map((c) => (c as unknown as { data: Retry }).data);

async function ask(agentId: string, text: string, chatId = uid('chat')) {
  const started = Date.now();
  const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(uid('u'), text) });
  return { read, chatId, ms: Date.now() - started };
}

async function storedAnswer(chatId: string) {
  const full = await json(await t.request(`${ws}/chats/${chatId}`));
  return full.messages.at(-1) as { role: string; parts: { type: string; text?: string }[] };
}

describe('rate limits', () => {
  it('waits the Retry-After seconds, says so while it waits, then answers; nothing of the notice is stored', async () => {
    const { sim, agent } = await simAgent({ rateLimit: { times: 1, retryAfter: '2' } });
    const { read, chatId, ms } = await ask(agent.id, 'hello after a pause');
    expect(sim.requests).toHaveLength(2);
    expect(retriesOf(read)).toEqual([
      // A rate limit gets up to 6 attempts (a failure such as a 503 gets 3), within 60 s of waiting.
      { attempt: 2, maxAttempts: 6, rateLimited: true, retryInMs: 2000, message: expect.stringContaining('HTTP 429') },
      { attempt: 2, maxAttempts: 6, message: '', recovered: true },
    ]);
    expect(ms).toBeGreaterThanOrEqual(1900);
    const types = read.chunks.map((c) => c.type);
    expect(types.indexOf('data-run-retry')).toBeLessThan(types.indexOf('text-delta'));
    expect(textOf(read.chunks)).toContain('hello after a pause');
    const answer = await storedAnswer(chatId);
    expect(answer.role).toBe('assistant');
    expect(answer.parts.map((p) => p.type)).not.toContain('data-run-retry');
  });

  it('reads Retry-After as an HTTP date, and OpenAI’s retry-after-ms', async () => {
    const dated = await simAgent({ rateLimit: { times: 1, retryAfter: new Date(Date.now() + 2_000).toUTCString() } });
    const byDate = await ask(dated.agent.id, 'dated');
    const [wait] = retriesOf(byDate.read);
    expect(wait).toMatchObject({ attempt: 2, rateLimited: true });
    // An HTTP date has whole seconds: the wait is what is left until then, never the 2 s backoff's guess.
    expect(wait!.retryInMs).toBeGreaterThan(0);
    expect(wait!.retryInMs).toBeLessThanOrEqual(2_000);
    expect(textOf(byDate.read.chunks)).toContain('dated');

    const precise = await simAgent({ rateLimit: { times: 1, retryAfterMs: 1_200, retryAfter: '30' } });
    const byMs = await ask(precise.agent.id, 'precise');
    expect(retriesOf(byMs.read)[0]).toMatchObject({ attempt: 2, rateLimited: true, retryInMs: 1_200 });
    expect(textOf(byMs.read.chunks)).toContain('precise');
  });

  it('fails at once, saying how long the provider asks to wait, when that is beyond the retry budget', async () => {
    const { sim, agent } = await simAgent({ rateLimit: { times: 5, retryAfter: '600' } });
    const { read, ms } = await ask(agent.id, 'are you there?');
    expect(sim.requests).toHaveLength(1);
    expect(retriesOf(read)).toEqual([]);
    expect(runErrorOf(read.chunks)).toEqual({
      code: 'provider_error',
      message: 'Rate limited by the provider; it asks to wait 10 minutes. Baton waits at most 60 seconds for a call, so try again later.',
    });
    expect(ms).toBeLessThan(1_500);
  });

  it('holds back the other calls to a provider that has just rate-limited one, for the time it asked', async () => {
    const { sim, agent } = await simAgent({ rateLimit: { times: 1, retryAfter: '2' } });
    const first = ask(agent.id, 'first in line');
    // The second call starts once the first has been refused (and is waiting its 2 s).
    await expect.poll(() => sim.requests.length, { timeout: 5_000, interval: 20 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await ask(agent.id, 'second in line');
    const [notice] = retriesOf(second.read);
    expect(notice).toMatchObject({ attempt: 1, rateLimited: true, message: SHARED_BACKOFF_MESSAGE });
    expect(notice!.retryInMs).toBeGreaterThan(1_000);
    expect(notice!.retryInMs).toBeLessThanOrEqual(2_000);
    expect(textOf(second.read.chunks)).toContain('second in line');
    expect(textOf((await first).read.chunks)).toContain('first in line');
    // One refusal in all: the second call was never sent into the window.
    expect(sim.requests).toHaveLength(3);
  });

  it('a batch of ten sub-agents against a provider that refuses the first requests: every one waits and succeeds', async () => {
    // 25 refusals: the ten start together and are refused, then again after a second, then five of them once more —
    // three attempts would have failed those five.
    const { sim, agent: worker } = await simAgent({ rateLimit: { times: 25, retryAfter: '1' } }, { name: uid('Worker') });
    const lead = await json(await t.request(`${ws}/agents`, { json: { name: uid('Lead'), description: 'delegates', subAgentIds: [worker.id] } }));
    const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: lead.id } }));
    const lines = Array.from({ length: 10 }, (_, i) => `/delegate ${worker.name}: item ${i + 1}`).join('\n');
    const res = await t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: lines } });
    expect(res.status).toBe(200);
    const { messages } = await json(res);
    const outputs = messages
      .at(-1)
      .parts.filter((p: { type: string }) => p.type === 'tool-newTask')
      .map((p: { output: { status: string; result: string } }) => p.output);
    expect(outputs).toHaveLength(10);
    expect(outputs.map((o: { status: string }) => o.status)).toEqual(Array(10).fill('success'));
    // One answered call per sub-agent, plus the refused ones.
    expect(sim.requests.length).toBe(35);
  }, 30_000);
});

describe('models that do not support tools', () => {
  it('names the agent and the model, and says what to do (Ollama’s and vLLM’s words)', async () => {
    for (const server of ['ollama', 'vllm'] as const) {
      const name = uid('Writer');
      const { sim, agent } = await simAgent({ refuseTools: server }, { modelId: 'gemma:2b', toolIds: ['calculator'], name });
      const { read } = await ask(agent.id, 'what is 2+2?');
      expect(sim.requests).toHaveLength(1);
      expect(runErrorOf(read.chunks)).toEqual({
        code: 'provider_error',
        message: `The model gemma:2b of agent ${name} does not support tools; pick a model that does, or remove its tools and sub-agents.`,
      });
    }
  });

  it('a sub-agent whose model refuses tools: its parent receives an error outcome with that reason, and goes on', async () => {
    const name = uid('Writer');
    const { sim, agent: writer } = await simAgent({ refuseTools: 'ollama' }, { modelId: 'gemma:2b', name });
    const lead = await json(await t.request(`${ws}/agents`, { json: { name: uid('Lead'), description: 'delegates', subAgentIds: [writer.id] } }));
    const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: lead.id } }));
    const res = await t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: `/delegate ${name}: a short poem` } });
    expect(res.status).toBe(200);
    const assistant = (await json(res)).messages.at(-1);
    const [call] = assistant.parts.filter((p: { type: string }) => p.type === 'tool-newTask');
    const reason = `The model gemma:2b of agent ${name} does not support tools, which a sub-agent needs to report its result; pick a model that does.`;
    expect(call.output).toMatchObject({ status: 'error', result: `The sub-agent failed: ${reason}` });
    // No second call asking for a partial result: the model cannot do what a sub-agent must.
    expect(sim.requests).toHaveLength(1);
    // The parent went on after the error outcome: its answer has text after the call.
    const after = assistant.parts.slice(assistant.parts.indexOf(call) + 1);
    expect(after.some((p: { type: string; text?: string }) => p.type === 'text' && p.text)).toBe(true);
    const subChat = await json(await t.request(`${ws}/chats/${call.output.subChatId}`));
    expect(subChat.status).toBe('error');
  });
});
