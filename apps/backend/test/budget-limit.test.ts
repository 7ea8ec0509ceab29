import { countSteps, partialResultReserve, stepOutputCap } from '@baton/delegation';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, run } from '../src/db/schema';
import { toolNames } from './support/demo-model';
import { json, useTestApp } from './support/test-app';
import type { StoredPart } from './support/messages';

// A token budget is a limit (ADR 0016, as revised): before each step the sub-agent stops when
// what it used, plus the step's input and output cap, plus what the final partial-result call
// needs, would pass its budget; that final call's output is capped to the reserve. Measured
// here with the demo model (one token per word) through the REST flow.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents: Record<string, { id: string }> = {};

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
}

async function ask(agentId: string, text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const last = (await json(res)).messages.at(-1);
  const outputs = last.parts.filter((p: StoredPart) => p.type === 'tool-newTask').map((p: StoredPart) => p.output);
  const subs = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, c.id)).orderBy(asc(chat.createdAt));
  return { outputs, subs };
}

beforeAll(async () => {
  await createAgent('Worker');
  await createAgent('Thrifty', { subAgentIds: [agents.Worker!.id], delegation: { maxTokensPerDelegation: 1500 } });
  await createAgent('TreeThrifty', { subAgentIds: [agents.Worker!.id], delegation: { maxTokensPerTree: 1500, maxConcurrent: 1 } });
});

describe('steps: the block and the tree count the same thing', () => {
  it('a sub-agent stopped by its budget: the steps its transcript shows (what a block counts) are the steps the tree reports', async () => {
    const { subs } = await ask(agents.Thrifty!.id, '/delegate Worker: [demo:work 50] map the weirs');
    const [sub] = subs;
    const stored = await json(await t.request(`${ws}/chats/${sub!.id}`));
    const { root } = await json(await t.request(`${ws}/chats/${sub!.id}/trace`));
    // One model step per note; the final call for the partial result is not a step of the loop.
    expect(root.steps).toBe(sub!.notes.length);
    expect(countSteps(stored.messages)).toBe(root.steps);
  });
});

describe('a token budget is a limit', () => {
  it('1,500 per delegation: the sub-agent stops in time, its partial result included, and the final call is capped to the reserve', async () => {
    const { outputs, subs } = await ask(agents.Thrifty!.id, '/delegate Worker: [demo:work 50] survey the river banks');
    expect(outputs[0]).toMatchObject({ outcome: 'budget_exhausted', status: 'error' });
    const [sub] = subs;
    const spent = sub!.inputTokens + sub!.outputTokens;
    // Measured: within the budget (no single step alone passed it), and it did real work.
    expect(spent).toBeLessThanOrEqual(1500);
    expect(sub!.notes.length).toBeGreaterThanOrEqual(2);
    expect(outputs[0].usage.inputTokens + outputs[0].usage.outputTokens).toBe(spent);
    const [subRun] = await t.handle.db.select().from(run).where(eq(run.chatId, sub!.id));
    expect(subRun!.inputTokens + subRun!.outputTokens).toBe(spent);
    // Each step's output was capped so the check before it could count its worst case, and the final call to the reserve.
    const own = t.demo.requests.filter((r) => JSON.stringify(r.messages).includes('survey the river banks'));
    const steps = own.filter((r) => toolNames(r).includes('note'));
    const final = own.filter((r) => toolNames(r).length === 0 && JSON.stringify(r.messages).includes('Report your result so far'));
    expect(steps.length).toBe(sub!.notes.length);
    for (const r of steps) expect((r as { max_tokens?: number }).max_tokens).toBe(stepOutputCap(1500));
    expect(final).toHaveLength(1);
    expect((final[0] as { max_tokens?: number }).max_tokens).toBe(partialResultReserve(1500));
  });

  it('1,500 for the tree, two siblings one after another: together they stay within it', async () => {
    const { outputs, subs } = await ask(
      agents.TreeThrifty!.id,
      '/delegate Worker: [demo:work 50] first sibling\n/delegate Worker: [demo:work 50] second sibling',
    );
    expect(outputs.map((o: { outcome: string }) => o.outcome)).toEqual(['budget_exhausted', 'budget_exhausted']);
    const [first, second] = subs;
    const firstSpent = first!.inputTokens + first!.outputTokens;
    const secondSpent = second!.inputTokens + second!.outputTokens;
    expect(firstSpent).toBeLessThanOrEqual(1500);
    // The second got what the first left and stopped within it too (measured: 1,086 + 396).
    expect(firstSpent + secondSpent).toBeLessThanOrEqual(1500);
    expect(second!.notes.length).toBeGreaterThanOrEqual(1);
  });
});
