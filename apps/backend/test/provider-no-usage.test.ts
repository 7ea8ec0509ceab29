import { startProviderSimulator, type ProviderSimulator } from '@baton/provider-sim';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { countTokens } from '../src/agent/usage-estimate';
import { postStream, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// A provider that reports no usage at all (many local servers): Baton counts the tokens
// itself, marks them as an estimate, and budgets, roll-ups and the tree go on working.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const MODEL = 'sim-no-usage';

let sim: ProviderSimulator;
let providerId: string;
const createAgent = async (name: string, body: Record<string, unknown> = {}) =>
  json(await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, providerId, modelId: MODEL, ...body } }));

beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 1, models: { [MODEL]: { usage: false } } });
  providerId = (await json(await t.request(`${ws}/providers`, { json: { name: 'Local server', baseUrl: sim.baseURL, apiKey: null, modelIds: [MODEL] } }))).id;
});
afterAll(() => sim?.close());

describe('a provider that reports no usage', () => {
  it('gets its answer counted with a tokenizer, stored as an estimate', async () => {
    const agent = await createAgent('Local');
    const chatId = 'c_no_usage';
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage('u_no_usage', 'Tell me about otters') });
    // The provider really sent none, though it was asked for it.
    expect((sim.requests.at(-1) as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });
    const text = textOf(read.chunks);
    const { messages, usage } = await json(await t.request(`${ws}/chats/${chatId}`));
    const own = messages.at(-1).metadata.usage.own;
    expect(own).toEqual({ inputTokens: expect.any(Number), outputTokens: await countTokens([text]), estimated: true });
    // The system prompt and the question: more than the question alone, far less than the characters.
    const requestChars = JSON.stringify((sim.requests.at(-1) as { messages: unknown }).messages).length;
    expect(own.inputTokens).toBeGreaterThan(await countTokens(['Tell me about otters']));
    expect(own.inputTokens).toBeLessThan(requestChars);
    expect(messages.at(-1).metadata.usage.total.estimated).toBe(true);
    // The chat's own tokens (its row) count the estimate too.
    expect(usage.own.inputTokens + usage.own.outputTokens).toBe(own.inputTokens + own.outputTokens);
  });

  it('still stops a sub-agent at its token budget (counted from the estimates)', async () => {
    const leaf = await createAgent('Leaf');
    const parent = await createAgent('Budgeted', { subAgentIds: [leaf.id], delegation: { maxTokensPerDelegation: 1500 } });
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: parent.id } }));
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/delegate Leaf: [demo:work 50] keep going' } });
    expect(res.status).toBe(200);
    const { messages } = await json(res);
    const call = messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ outcome: 'budget_exhausted' });
    // Counted from the estimates (without them the sub-agent would spend "0" and write all 50 notes),
    // and within the budget: a budget is a limit.
    const spent = call.output.usage.inputTokens + call.output.usage.outputTokens;
    expect(call.output.usage.inputTokens).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(1500);
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, c.id));
    expect(sub!.notes.length).toBeGreaterThan(0);
    expect(sub!.notes.length).toBeLessThan(50);
    // The sub-agent's answer says its tokens are an estimate; the parent's answer counts them as delegated.
    const subMessages = (await json(await t.request(`${ws}/chats/${sub!.id}`))).messages;
    expect(subMessages.at(-1).metadata.usage.own).toMatchObject({ estimated: true });
    expect(messages.at(-1).metadata.usage.delegated).toMatchObject({ inputTokens: call.output.usage.inputTokens });
  }, 60_000);
});
