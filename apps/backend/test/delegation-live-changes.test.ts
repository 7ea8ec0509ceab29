import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, run } from '../src/db/schema';
import { toolNames } from './support/demo-model';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Agents changed while their delegation tree runs (REST flow). What governs: each level
// reads the root agent's settings when its own turn starts, so a change reaches the
// sub-agents started after it and never one already at work; a deleted agent's running
// sub-chats finish with the agent they started with (their rows keep a null agentId).
const t = useTestApp({ demoDelayMs: 2 });
const ws = '/api/workspaces/default';
const agents: Record<string, { id: string }> = {};

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
}

const subChatsOf = (parentId: string) => t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId)).orderBy(asc(chat.createdAt));

/** Sends a REST message without waiting; resolves with the response body once the whole tree has answered. */
async function send(agentId: string, text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const answered = t.request(`${ws}/chats/${c.id}/messages`, { json: { text } }).then(async (res) => ({ status: res.status, body: await json(res) }));
  return { chatId: c.id as string, answered };
}

/** The first depth-2 sub-chat of the tree once it exists (its sub-agent is then at work). */
const leafAtWork = (rootId: string) =>
  waitFor('the depth-2 sub-agent is at work', async () => {
    const [middle] = await subChatsOf(rootId);
    const [leaf] = middle ? await subChatsOf(middle.id) : [];
    return leaf ? { middle: middle!, leaf } : undefined;
  });

async function expectNothingRunning(rootId: string) {
  const trace = await json(await t.request(`${ws}/chats/${rootId}/trace`));
  const statuses: string[] = [];
  const walk = (n: { status: string | null; children: unknown[] }) => {
    statuses.push(String(n.status));
    for (const c of n.children) walk(c as typeof n);
  };
  walk(trace.root);
  expect(statuses).not.toContain('running');
  expect(await t.handle.db.select().from(run).where(eq(run.status, 'running'))).toEqual([]);
  return trace;
}

beforeAll(async () => {
  await createAgent('Leaf');
  await createAgent('Middle', { subAgentIds: [agents.Leaf!.id] });
  await createAgent('Root', { subAgentIds: [agents.Middle!.id], delegation: { maxDepth: 2, maxConcurrent: 1 } });
});

describe('agents changed while their delegation tree runs', () => {
  it('maxDepth lowered mid-tree: the sub-agent already at work keeps delegating; one started after the change is not offered newTask', async () => {
    const task = '/delegate Middle: /delegate Leaf: [demo:work 40] count the otters';
    // maxConcurrent 1: the second Middle waits its turn until the first has finished.
    const { chatId, answered } = await send(agents.Root!.id, `${task}\n${task}`);
    await leafAtWork(chatId);
    const patched = await t.request(`${ws}/agents/${agents.Root!.id}`, { method: 'PATCH', json: { delegation: { maxDepth: 1 } } });
    expect(patched.status).toBe(200);
    const { status, body } = await answered;
    expect(status).toBe(200);
    const outputs = body.messages
      .at(-1)
      .parts.filter((p: { type: string }) => p.type === 'tool-newTask')
      .map((p: { output: unknown }) => p.output);
    expect(outputs.map((o: { outcome: string }) => o.outcome)).toEqual(['success', 'success']);
    const [first, second] = await subChatsOf(chatId);
    expect(await subChatsOf(first!.id)).toHaveLength(1);
    expect(await subChatsOf(second!.id)).toEqual([]);
    const secondRequest = t.demo.requests.findLast((r) => toolNames(r).includes('taskResult') && JSON.stringify(r.messages).includes('/delegate Leaf'));
    expect(toolNames(secondRequest!)).toEqual(['note', 'taskResult']);
    await expectNothingRunning(chatId);
    await t.request(`${ws}/agents/${agents.Root!.id}`, { method: 'PATCH', json: { delegation: { maxDepth: 2 } } });
  });

  it('the working sub-agent and the root agent deleted mid-tree: every level ends, nothing stays running, the trace shows the tree', async () => {
    await createAgent('DoomedLeaf');
    await createAgent('DoomedMiddle', { subAgentIds: [agents.DoomedLeaf!.id] });
    await createAgent('DoomedRoot', { subAgentIds: [agents.DoomedMiddle!.id], delegation: { maxDepth: 2 } });
    const { chatId, answered } = await send(agents.DoomedRoot!.id, '/delegate DoomedMiddle: /delegate DoomedLeaf: [demo:work 40] count the otters');
    const { leaf } = await leafAtWork(chatId);
    for (const name of ['DoomedLeaf', 'DoomedRoot']) expect((await t.request(`${ws}/agents/${agents[name]!.id}`, { method: 'DELETE' })).status).toBe(204);

    const { status, body } = await answered;
    expect(status).toBe(200);
    const [output] = body.messages
      .at(-1)
      .parts.filter((p: { type: string }) => p.type === 'tool-newTask')
      .map((p: { output: unknown }) => p.output);
    expect(output).toMatchObject({ outcome: 'success' });
    const [leafRow] = await t.handle.db.select().from(chat).where(eq(chat.id, leaf.id));
    expect(leafRow).toMatchObject({ agentId: null, outcome: 'success', depth: 2 });
    expect(leafRow!.notes.length).toBeGreaterThan(0);
    const trace = await expectNothingRunning(chatId);
    expect(trace.root).toMatchObject({ agentId: null, agentName: null });
    expect(trace.root.children[0].children[0]).toMatchObject({ chatId: leaf.id, agentId: null, agentName: null, outcome: 'success' });
    // The chat goes on once it is given an agent (its own is gone: a 400 that says so).
    const orphan = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'and now?' } });
    expect(orphan.status).toBe(400);
    expect((await json(orphan)).error.message).toMatch(/no agent/);
    const next = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'and now?', agentId: agents.Middle!.id } });
    expect(next.status).toBe(200);
  });
});
