import { DEFAULT_REASONING_TEXT, startProviderSimulator, type ProviderSimulator, type ReasoningField } from '@baton/provider-sim';
import type { UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postStream, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// Reasoning models over HTTP: the provider simulator streams its thinking in each field real
// providers use; Baton streams it to the client, stores it with the answer, counts its
// tokens, and never sends it back.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const FIELDS: ReasoningField[] = ['reasoning_content', 'reasoning', 'reasoning_details'];
const modelFor = (field: ReasoningField) => `sim-${field}`;
const reasoningWords = DEFAULT_REASONING_TEXT.split(/\s+/).length;

let sim: ProviderSimulator;
const agents: Record<string, string> = {};
beforeAll(async () => {
  sim = await startProviderSimulator({
    delayMs: 1,
    models: Object.fromEntries(FIELDS.map((field) => [modelFor(field), { reasoning: { field, chunks: 8 } }])),
  });
  const modelIds = FIELDS.map(modelFor);
  const provider = await json(await t.request(`${ws}/providers`, { json: { name: 'Reasoners', baseUrl: sim.baseURL, apiKey: null, modelIds } }));
  for (const field of FIELDS) {
    const leaf = await json(await t.request(`${ws}/agents`, { json: { name: `Leaf ${field}`, providerId: provider.id, modelId: modelFor(field) } }));
    const agent = await json(
      await t.request(`${ws}/agents`, { json: { name: `Thinker ${field}`, providerId: provider.id, modelId: modelFor(field), subAgentIds: [leaf.id] } }),
    );
    agents[field] = agent.id;
  }
});
afterAll(() => sim?.close());

const reasoningOf = (chunks: UIMessageChunk[]) => chunks.flatMap((c) => (c.type === 'reasoning-delta' ? [c.delta] : [])).join('');
const requestsSince = (n: number) => sim.requests.slice(n) as unknown as { model: string; messages: Record<string, unknown>[] }[];

describe.each(FIELDS)('a model streaming its reasoning in `%s`', (field) => {
  const chatId = `c_reasoning_${field}`;

  it('streams the reasoning to the client before the answer and stores it as a reasoning part, its tokens counted', async () => {
    const read = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: chatId,
      agentId: agents[field],
      message: userMessage(`u1_${field}`, 'Tell me about otters'),
    });
    const types = read.chunks.map((c) => c.type);
    expect(types.filter((type) => type === 'reasoning-delta').length).toBeGreaterThan(1);
    expect(types.indexOf('reasoning-start')).toBeLessThan(types.indexOf('reasoning-end'));
    expect(types.indexOf('reasoning-end')).toBeLessThan(types.indexOf('text-start'));
    expect(reasoningOf(read.chunks)).toBe(DEFAULT_REASONING_TEXT);
    expect(textOf(read.chunks)).toContain('otters');
    const end = read.chunks.find((c) => c.type === 'reasoning-end') as { providerMetadata?: { baton?: { thinkingMs?: number } } };
    expect(end.providerMetadata?.baton?.thinkingMs).toEqual(expect.any(Number));

    const { messages } = await json(await t.request(`${ws}/chats/${chatId}`));
    const answer = messages.at(-1);
    expect(answer.parts.filter((p: { type: string }) => p.type === 'reasoning')).toEqual([
      expect.objectContaining({
        type: 'reasoning',
        text: DEFAULT_REASONING_TEXT,
        state: 'done',
        providerMetadata: { baton: { thinkingMs: expect.any(Number) } },
      }),
    ]);
    // The provider's completion_tokens_details.reasoning_tokens: recorded, and part of the answer's output tokens.
    expect(answer.metadata.reasoningTokens).toBe(reasoningWords);
    expect(answer.metadata.usage.own.outputTokens).toBeGreaterThan(reasoningWords);
    expect(answer.metadata.usage.own.estimated).toBeUndefined();
  });

  it('sends no reasoning back to the model on the next turn', async () => {
    const before = sim.requests.length;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents[field], message: userMessage(`u2_${field}`, 'And beavers?') });
    const [next] = requestsSince(before);
    expect(next!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(next!.messages[2]).not.toHaveProperty('reasoning_content');
    expect(next!.messages[2]).not.toHaveProperty('reasoning');
    expect(JSON.stringify(next!.messages)).not.toContain('step by step');
  });

  it('sends none back within an answer’s steps either (a sub-agent’s tool loop, server flow)', async () => {
    const before = sim.requests.length;
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents[field] } }));
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: `/delegate Leaf ${field}: count the otters` } });
    expect(res.status).toBe(200);
    const requests = requestsSince(before);
    // The parent's newTask step, the sub-agent's, then the parent's step after the result, which carries the first step's messages.
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const assistantMessages = requests.flatMap((r) => r.messages.filter((m) => m.role === 'assistant'));
    expect(assistantMessages.some((m) => Array.isArray(m.tool_calls))).toBe(true);
    for (const m of assistantMessages) {
      expect(m).not.toHaveProperty('reasoning_content');
      expect(m).not.toHaveProperty('reasoning');
    }
    expect(JSON.stringify(requests.map((r) => r.messages))).not.toContain('step by step');
  });
});
