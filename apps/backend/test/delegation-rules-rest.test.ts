import { asc, desc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, run } from '../src/db/schema';
import { postStream } from './support/chat-client';
import { systemPrompt, toolNames } from './support/demo-model';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { waitFor } from './support/wait';
import type { StoredPart } from './support/messages';

// The delegation rules through the REST flow (POST …/chats/:id/messages): the server runs
// every level. delegation-rules-browser.test.ts checks the same rules through the browser flow.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents: Record<string, { id: string; name: string }> = {};

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
  return agents[name]!;
}

async function ask(agentId: string, text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const { messages } = await json(res);
  const calls = messages.at(-1).parts.filter((p: StoredPart) => p.type === 'tool-newTask') as StoredPart[];
  return { chatId: c.id as string, calls, outputs: calls.map((p) => p.output), last: messages.at(-1) };
}

const subChatsOf = (parentId: string) => t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId)).orderBy(asc(chat.createdAt));

beforeAll(async () => {
  await createAgent('Leaf', { toolIds: ['calculator'] });
  await createAgent('Middle', { toolIds: ['calculator', 'currentTime'], subAgentIds: [agents.Leaf!.id] });
  // Middle may delegate back to Top: the chain rule must keep Top from being offered below itself.
  await createAgent('Top', { toolIds: ['currentTime'], subAgentIds: [agents.Middle!.id], delegation: { maxDepth: 3 } });
  await t.request(`${ws}/agents/${agents.Middle!.id}`, { method: 'PATCH', json: { subAgentIds: [agents.Leaf!.id, agents.Top!.id] } });
  await createAgent('Shallow', { subAgentIds: [agents.Middle!.id] });
  await createAgent('Generalist', { toolIds: ['calculator'], delegation: { generalPurpose: true } });
  await createAgent('Own', { subAgentIds: [agents.Middle!.id], delegation: { toolPolicy: 'own', maxDepth: 2 } });
  await createAgent('Capped', { subAgentIds: [agents.Leaf!.id], delegation: { maxResultChars: 100 } });
  await createAgent('Serial', { subAgentIds: [agents.Leaf!.id], delegation: { maxConcurrent: 1 } });
  await createAgent('Budget', { subAgentIds: [agents.Leaf!.id], delegation: { maxTokensPerDelegation: 400 } });
  await createAgent('TreeSerial', { subAgentIds: [agents.Leaf!.id], delegation: { maxTokensPerTree: 600, maxConcurrent: 1 } });
  await createAgent('TreeParallel', { subAgentIds: [agents.Leaf!.id], delegation: { maxTokensPerTree: 600 } });
  await createAgent('Summarizer', { subAgentIds: [agents.Leaf!.id], delegation: { contextMode: 'summary' } });
});

describe('rules through the REST flow', () => {
  it('1. depth: nested delegation runs down to the root’s maxDepth, stored as a parentChatId chain, never A → B → A', async () => {
    const { chatId, outputs, last } = await ask(agents.Top!.id, '/delegate Middle: organise it\n/delegate Leaf: not mine to call');
    expect(outputs[0]).toMatchObject({ outcome: 'success', status: 'success', truncated: false });
    // Leaf is not Top's sub-agent.
    expect(outputs[1]).toMatchObject({ outcome: 'error', subChatId: null, result: expect.stringMatching(/not a sub-agent Top can delegate to/) });
    const [middle] = await subChatsOf(chatId);
    expect(middle).toMatchObject({ depth: 1, agentId: agents.Middle!.id, outcome: 'success' });
    expect(outputs[0].usage.outputTokens).toBeGreaterThan(0);
    expect(last.metadata.usage.delegated).toEqual(outputs[0].usage);
    // Middle was offered newTask listing Leaf, not Top (on its chain).
    const middleRequest = t.demo.requests.find((r) => toolNames(r).includes('taskResult') && JSON.stringify(r.messages).includes('organise it'));
    expect(toolNames(middleRequest!)).toEqual(expect.arrayContaining(['newTask', 'note', 'taskResult']));
    expect(systemPrompt(middleRequest!)).toMatch(/## Sub-agents[\s\S]*## You are a sub-agent|## You are a sub-agent[\s\S]*## Sub-agents/);
    expect(JSON.stringify(middleRequest!.tools)).toContain(`(id: ${agents.Leaf!.id})`);
    expect(JSON.stringify(middleRequest!.tools)).not.toContain(`(id: ${agents.Top!.id})`);
    expect((await json(await t.request(`${ws}/chats/${middle!.id}/sub-chats`))).data).toEqual([]);
  });

  it('1. depth 2 and 3: a task with /delegate lines delegates on; sub-chats of sub-chats list at every level', async () => {
    const { chatId, outputs } = await ask(agents.Top!.id, '/delegate Middle: /delegate Leaf: count the otters');
    expect(outputs[0]).toMatchObject({ outcome: 'success' });
    const [middle] = await subChatsOf(chatId);
    const nested = (await json(await t.request(`${ws}/chats/${middle!.id}/sub-chats`))).data;
    expect(nested).toHaveLength(1);
    expect(nested[0]).toMatchObject({ depth: 2, agentId: agents.Leaf!.id, parentChatId: middle!.id, outcome: 'success' });
    // With maxDepth 1 (the root's default) the same task is not delegated further.
    const shallow = await ask(agents.Shallow!.id, '/delegate Middle: /delegate Leaf: count the otters');
    const [m] = await subChatsOf(shallow.chatId);
    expect(await subChatsOf(m!.id)).toEqual([]);
  });

  it('2. general-purpose runs the delegating agent itself in a fresh context', async () => {
    const { chatId, outputs } = await ask(agents.Generalist!.id, '/delegate general-purpose: add two numbers');
    expect(outputs[0]).toMatchObject({ outcome: 'success' });
    const [sub] = await subChatsOf(chatId);
    expect(sub).toMatchObject({ agentId: agents.Generalist!.id, depth: 1, effectiveToolIds: ['calculator'] });
  });

  it('3. context: summary is written by a model call and given before the task; stored on the sub-chat', async () => {
    const { chatId } = await ask(agents.Summarizer!.id, '/delegate Leaf: use what we said');
    const [sub] = await subChatsOf(chatId);
    expect(sub).toMatchObject({ contextMode: 'summary', delegateContext: expect.stringMatching(/^Summary of the conversation so far:/) });
    const given = t.demo.requests.find((r) => JSON.stringify(r.messages).includes('Context from the conversation that delegated this task'));
    expect(JSON.stringify(given!.messages)).toContain('Summary of the conversation so far');
    expect(sub!.inputTokens).toBeGreaterThan(0);
  });

  it('4. tools: intersect keeps what the parent may use; own keeps the agent’s own', async () => {
    const top = await ask(agents.Top!.id, '/delegate Middle: tools please');
    expect((await subChatsOf(top.chatId))[0]!.effectiveToolIds).toEqual(['currentTime']);
    const own = await ask(agents.Own!.id, '/delegate Middle: tools please');
    expect((await subChatsOf(own.chatId))[0]!.effectiveToolIds).toEqual(['calculator', 'currentTime']);
  });

  it('5. maxConcurrent 1 runs the sub-agents of a step one after another', async () => {
    const { chatId, outputs } = await ask(agents.Serial!.id, '/delegate Leaf: one\n/delegate Leaf: two\n/delegate Leaf: three');
    expect(outputs.map((o: any) => o.outcome)).toEqual(['success', 'success', 'success']);
    const subs = await subChatsOf(chatId);
    const runs = await t.handle.db
      .select()
      .from(run)
      .where(
        inArray(
          run.chatId,
          subs.map((s) => s.id),
        ),
      )
      .orderBy(asc(run.startedAt));
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(runs[i - 1]!.endedAt!.getTime());
  });

  it('6. a result over maxResultChars reaches the parent cut; the sub-chat keeps the whole', async () => {
    const { chatId, outputs } = await ask(
      agents.Capped!.id,
      '/delegate Leaf: write a result long enough to be cut by the cap of one hundred characters that the root agent set for every level',
    );
    expect(outputs[0]).toMatchObject({ truncated: true, outcome: 'success', result: expect.stringMatching(/Result truncated: 100 of/) });
    const [sub] = await subChatsOf(chatId);
    expect(sub!.delegateResult!.length).toBeGreaterThan(100);
    expect(outputs[0].result.startsWith(sub!.delegateResult!.slice(0, 100))).toBe(true);
  });

  it('7. the step limit returns a partial result with the notes', async () => {
    const { chatId, outputs } = await ask(agents.Top!.id, '/delegate Middle: [demo:work 150] keep going');
    expect(outputs[0]).toMatchObject({ outcome: 'step_limit', status: 'error' });
    expect(outputs[0].result).toMatch(/stopped after 100 steps[\s\S]*Partial result: Note 1 of 150[\s\S]*Notes:\n- Note 1 of 150/);
    const [sub] = await subChatsOf(chatId);
    expect(sub!.notes).toHaveLength(100);
    const [subRun] = await t.handle.db.select().from(run).where(eq(run.chatId, sub!.id));
    expect(subRun!.steps).toBe(100);
  }, 60_000);

  it('7. a small per-delegation budget stops the sub-agent with a partial result', async () => {
    const { chatId, outputs } = await ask(agents.Budget!.id, '/delegate Leaf: [demo:work 50] keep going');
    expect(outputs[0]).toMatchObject({ outcome: 'budget_exhausted', status: 'error' });
    expect(outputs[0].result).toMatch(/ran out of its token budget[\s\S]*Partial result: Note 1 of 50/);
    const [sub] = await subChatsOf(chatId);
    expect(sub!.notes.length).toBeGreaterThan(0);
    expect(sub!.notes.length).toBeLessThan(50);
    // A limit: it stopped while the step and the final call still fitted (ADR 0016).
    expect(sub!.inputTokens + sub!.outputTokens).toBeLessThanOrEqual(400);
  });

  it('5. with maxConcurrent 1 the waiting call streams a `queued` preliminary output, then `running`, then its result', async () => {
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Serial!.id } }));
    const read = await postStream(`${t.baseUrl}${ws}/chats/${c.id}/messages?stream=1`, {
      text: '/delegate Leaf: first in line\n/delegate Leaf: second in line',
    });
    expect(read.status).toBe(200);
    const calls = read.chunks.filter((x) => x.type === 'tool-input-available') as { toolCallId: string }[];
    expect(calls).toHaveLength(2);
    const outputsOf = (id: string) =>
      (
        read.chunks.filter((x) => x.type === 'tool-output-available' && x.toolCallId === id) as {
          output: { status: string; subChatId: string | null };
          preliminary?: boolean;
        }[]
      ).map((o) => ({
        preliminary: o.preliminary ?? false,
        status: o.output.status,
        subChatId: o.output.subChatId,
      }));
    const first = outputsOf(calls[0]!.toolCallId);
    const second = outputsOf(calls[1]!.toolCallId);
    expect(first.some((o) => o.status === 'queued')).toBe(false);
    expect(second[0]).toEqual({ preliminary: true, status: 'queued', subChatId: null });
    const secondSubChat = second.at(-1)!.subChatId!;
    expect(second.at(-1)).toEqual({ preliminary: false, status: 'success', subChatId: expect.any(String) });
    // Once it has a slot it reports as running, on its own sub-chat (the AI SDK repeats the
    // generator's last value, the final output, as one more preliminary output).
    const statuses = second.map((o) => o.status).filter((status, i, all) => status !== all[i - 1]);
    expect(statuses).toEqual(['queued', 'running', 'success']);
    expect(second.filter((o) => o.status === 'running').every((o) => o.preliminary && o.subChatId === secondSubChat)).toBe(true);
    // It was queued until the first ended: its sub-chat started after the first's run ended.
    const [firstRun] = await t.handle.db
      .select()
      .from(run)
      .where(eq(run.chatId, first.at(-1)!.subChatId!));
    const [secondRun] = await t.handle.db.select().from(run).where(eq(run.chatId, secondSubChat));
    expect(secondRun!.startedAt.getTime()).toBeGreaterThanOrEqual(firstRun!.endedAt!.getTime());
  });

  it('7. maxTokensPerTree spans siblings: run one after another, the second gets what the first left (here too little)', async () => {
    const { chatId, outputs, last } = await ask(
      agents.TreeSerial!.id,
      '/delegate Leaf: [demo:work 50] first sibling\n/delegate Leaf: [demo:work 50] second sibling',
    );
    expect(outputs.map((o: { outcome: string }) => o.outcome)).toEqual(['budget_exhausted', 'budget_exhausted']);
    const [first, second] = await subChatsOf(chatId);
    expect(first!.inputTokens + first!.outputTokens).toBeLessThanOrEqual(600);
    // Left too little for a step and a final call, the second still starts: a sub-agent always
    // makes its first step, then stops and returns a partial result with that step's note.
    expect(second!.notes).toHaveLength(1);
    expect(outputs[1].result).toMatch(/ran out of its token budget[\s\S]*Notes:\n- Note 1 of 50: second sibling/);
    const [secondRun] = await t.handle.db.select().from(run).where(eq(run.chatId, second!.id));
    expect(secondRun!.steps).toBe(1);
    expect(last.metadata.usage.delegated).toEqual({
      inputTokens: outputs[0].usage.inputTokens + outputs[1].usage.inputTokens,
      outputTokens: outputs[0].usage.outputTokens + outputs[1].usage.outputTokens,
    });
  });

  it('7. maxTokensPerTree spans siblings running at once: both stop on their shared count', async () => {
    const { chatId, outputs } = await ask(agents.TreeParallel!.id, '/delegate Leaf: [demo:work 50] left sibling\n/delegate Leaf: [demo:work 50] right sibling');
    expect(outputs.map((o: { outcome: string }) => o.outcome)).toEqual(['budget_exhausted', 'budget_exhausted']);
    const subs = await subChatsOf(chatId);
    const spent = subs.reduce((sum, s) => sum + s.inputTokens + s.outputTokens, 0);
    const notes = subs.reduce((sum, s) => sum + s.notes.length, 0);
    // Each checks the shared count before its steps, but not the step the other is taking:
    // together they may pass the tree's budget by about one step (measured: 652 tokens, 3 notes;
    // a sub-agent's step here costs 120–200 tokens, its final call about as much).
    expect(spent).toBeLessThanOrEqual(800);
    expect(notes).toBeGreaterThanOrEqual(2);
    expect(notes).toBeLessThanOrEqual(4);
  });

  it('7. a provider error ends the sub-agent with a partial result: outcome error, after one call without tools asking for it', async () => {
    const { chatId, outputs } = await ask(agents.Serial!.id, '/delegate Leaf: break on purpose [demo:error]');
    expect(outputs[0]).toMatchObject({ outcome: 'error', status: 'error' });
    expect(outputs[0].result).toMatch(/^The sub-agent failed before it finished\. Its result so far:\n\nPartial result: no notes were written/);
    const [sub] = await subChatsOf(chatId);
    expect(sub).toMatchObject({ outcome: 'error', delegateResult: outputs[0].result });
    const asked = t.demo.requests.filter((r) => toolNames(r).length === 0 && JSON.stringify(r.messages).includes('break on purpose'));
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0]!.messages.at(-1))).toContain('Report your result so far');
    // The partial answer is stored as the end of the sub-chat's answer, so the sub-chat shows what the parent got.
    const stored = await json(await t.request(`${ws}/chats/${sub!.id}`));
    expect(JSON.stringify(stored.messages.at(-1).parts)).toContain('Partial result: no notes were written');
  });

  it('stopping a chat stops its whole delegation tree: every run ends cancelled, none stays running', async () => {
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Top!.id } }));
    const answering = t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/delegate Middle: /delegate Leaf: [demo:stall] wait for ever' } });
    const leaf = await waitFor('the depth-2 sub-agent running', async () => {
      const [row] = await t.handle.db.select().from(chat).where(eq(chat.depth, 2)).orderBy(desc(chat.createdAt)).limit(1);
      return row && (await t.isAnswering(row.id)) && row.parentChatId && (await subChatsOf(c.id)).some((m) => m.id === row.parentChatId) ? row : undefined;
    });
    expect(await json(await t.request(`${ws}/chats/${c.id}/stop`, { method: 'POST' }))).toEqual({ stopped: true });
    expect((await answering).status).toBe(200);
    const [middle] = await subChatsOf(c.id);
    const tree = [c.id, middle!.id, leaf.id];
    const runs = await t.handle.db.select().from(run).where(inArray(run.chatId, tree));
    expect(runs.map((r) => [r.chatId, r.status])).toEqual(expect.arrayContaining(tree.map((id) => [id, 'cancelled'])));
    expect(runs).toHaveLength(3);
    const chats = await t.handle.db
      .select()
      .from(chat)
      .where(inArray(chat.id, [middle!.id, leaf.id]));
    for (const row of chats) expect(withStatus(row)).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
    // Stopped is not run out: nobody is asked for a partial result.
    expect(t.demo.requests.some((r) => toolNames(r).length === 0 && JSON.stringify(r.messages).includes('wait for ever'))).toBe(false);
  });
});
