import { partialResultLead } from '@baton/delegation';
import { createDemoLlmApp } from '@baton/demo-llm';
import { PARTIAL_RESULT_REQUEST } from '@baton/delegation';
import { serve } from '@hono/node-server';
import { asc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';

// Providers that fail where the delegation tests had not looked: a nested (depth-2)
// sub-agent whose provider fails before its first token, and a sub-agent whose provider
// fails again in the one final call that asks for its partial result. The outcome must
// still say what happened, and the parent never gets "silently nothing": the notes come back.
const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const agents: Record<string, { id: string }> = {};
type Message = { role: string; content: unknown; tool_calls?: { function: { name: string } }[] };

/**
 * The demo model behind a proxy that adds one of the demo model's failure markers to the
 * last user message: of a request that comes after a `note` call (the sub-agent's second
 * step), and of the partial-result request — markers a task cannot reach, since both keep
 * the task as their last user message or replace it.
 */
async function startFailingProvider(failures: { afterNote: string; partial: string }) {
  const demo = createDemoLlmApp({ delayMs: 1 });
  const app = new Hono().all('*', async (c) => {
    if (c.req.method !== 'POST') return demo.fetch(c.req.raw);
    const body = (await c.req.json()) as { messages: Message[]; tools?: unknown[] };
    const lastUser = body.messages.findLast((m) => m.role === 'user');
    const noted = body.messages.some((m) => m.tool_calls?.some((tc) => tc.function.name === 'note'));
    const isPartial = !body.tools?.length && typeof lastUser?.content === 'string' && lastUser.content.includes(PARTIAL_RESULT_REQUEST);
    const marker = isPartial ? failures.partial : body.tools?.length && noted ? failures.afterNote : '';
    if (lastUser && marker) lastUser.content = `${typeof lastUser.content === 'string' ? lastUser.content : ''} ${marker}`;
    return demo.fetch(new Request(c.req.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  });
  return new Promise<{ baseURL: string; close: () => Promise<void> }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ baseURL: `http://127.0.0.1:${info.port}/v1`, close: () => new Promise((done) => server.close(() => done())) }),
    );
  });
}

const providers: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  for (const p of providers) await p.close();
});

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
}

async function failingAgent(name: string, failures: { afterNote: string; partial: string }) {
  const p = await startFailingProvider(failures);
  providers.push(p);
  const provider = await json(
    await t.request(`${ws}/providers`, { json: { name: `${name} provider`, baseUrl: p.baseURL, apiKey: null, modelIds: ['baton-demo'] } }),
  );
  await createAgent(name, { providerId: provider.id, modelId: 'baton-demo' });
}

async function ask(agentId: string, text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const last = (await json(res)).messages.at(-1);
  return { chatId: c.id as string, outputs: last.parts.filter((p: { type: string }) => p.type === 'tool-newTask').map((p: { output: unknown }) => p.output) };
}

const subChatsOf = (parentId: string) => t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId)).orderBy(asc(chat.createdAt));

beforeAll(async () => {
  await createAgent('Leaf');
  await failingAgent('DropsPartial', { afterNote: '[demo:error]', partial: '[demo:drop]' });
  await failingAgent('FailsPartial', { afterNote: '[demo:error]', partial: '[demo:error]' });
  await createAgent('Middle', { subAgentIds: [agents.Leaf!.id, agents.DropsPartial!.id] });
  await createAgent('Deep', { subAgentIds: [agents.Middle!.id, agents.DropsPartial!.id, agents.FailsPartial!.id], delegation: { maxDepth: 2 } });
});

describe('provider failures inside a delegation tree', () => {
  it('depth 2: the provider fails before the first token; the sub-agent ends error with its partial result, and every level above says so', async () => {
    const { chatId, outputs } = await ask(agents.Deep!.id, '/delegate Middle: /delegate Leaf: count the otters [demo:error]');
    const [middle] = await subChatsOf(chatId);
    const [leaf] = await subChatsOf(middle!.id);
    expect(withStatus(leaf!)).toMatchObject({ depth: 2, status: 'error', outcome: 'error' });
    expect(leaf!.delegateResult).toContain(partialResultLead.error);
    expect(leaf!.delegateResult).toContain('Partial result: no notes were written');
    // Middle quoted it and reported an error (its only result failed); the root's call says so.
    expect(middle).toMatchObject({ depth: 1, outcome: 'error' });
    expect(middle!.delegateResult).toContain(partialResultLead.error);
    expect(outputs[0]).toMatchObject({ outcome: 'error', status: 'error', subChatId: middle!.id });
    expect(outputs[0].result).toContain(partialResultLead.error);
  });

  it('the provider fails after a note, then breaks off mid-stream in the partial-result call: outcome error, what it said so far and its notes', async () => {
    const { chatId, outputs } = await ask(agents.Deep!.id, '/delegate DropsPartial: [demo:work 3] weigh the otters');
    const [sub] = await subChatsOf(chatId);
    expect(withStatus(sub!)).toMatchObject({ outcome: 'error', status: 'error' });
    expect(sub!.notes.map((n) => n.text)).toEqual(['Note 1 of 3: weigh the otters']);
    expect(outputs[0]).toMatchObject({ outcome: 'error', subChatId: sub!.id });
    const result = outputs[0].result as string;
    expect(result).toContain(partialResultLead.error);
    // [demo:drop] sends the first five words, then breaks off.
    expect(result).toContain('Partial result: Note 1');
    expect(result).toContain('Notes:\n- Note 1 of 3: weigh the otters');
    const stored = await json(await t.request(`${ws}/chats/${sub!.id}`));
    expect(stored).toMatchObject({ activeRun: null, outcome: 'error' });
  });

  it('the provider fails after a note and again before the first token of the partial-result call: the notes still come back', async () => {
    const { chatId, outputs } = await ask(agents.Deep!.id, '/delegate FailsPartial: [demo:work 3] weigh the otters');
    const [sub] = await subChatsOf(chatId);
    expect(withStatus(sub!)).toMatchObject({ outcome: 'error', status: 'error' });
    const result = outputs[0].result as string;
    expect(outputs[0]).toMatchObject({ outcome: 'error', subChatId: sub!.id });
    expect(result).toContain(partialResultLead.error);
    expect(result).toMatch(/\(no answer; the error was: .+\)/);
    expect(result).toContain('Notes:\n- Note 1 of 3: weigh the otters');
  });

  it('depth 2 through a failing provider: the nested sub-agent’s notes reach the root', async () => {
    const { chatId, outputs } = await ask(agents.Deep!.id, '/delegate Middle: /delegate DropsPartial: [demo:work 3] weigh the otters');
    const [middle] = await subChatsOf(chatId);
    const [leaf] = await subChatsOf(middle!.id);
    expect(leaf).toMatchObject({ depth: 2, outcome: 'error' });
    expect(outputs[0].result).toContain('Note 1 of 3: weigh the otters');
  });
});
