import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, run } from '../src/db/schema';
import { NodeChat, toolParts, userMessage } from './support/chat-client';
import { toolNames } from './support/demo-model';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { waitFor } from './support/wait';

// The delegation rules through the browser flow: the browser starts depth-1 sub-chats
// (POST …/chat with parentChatId); deeper levels run on the server inside them.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;
const agents: Record<string, { id: string }> = {};

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  agents[name] = await json(await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } }));
}

async function delegate(agentId: string, text: string) {
  const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId } });
  await parent.sendMessage({ text });
  await parent.settled();
  return { parent, calls: toolParts(parent.lastMessage, 'newTask') };
}

type Call = { toolCallId: string; input: { subAgentId: string; task: string } };

async function startSub(parent: NodeChat, call: Call, agentId = call.input.subAgentId) {
  const sub = new NodeChat({ id: uid('sub'), baseUrl: t.baseUrl, body: { agentId, parentChatId: parent.id, parentToolCallId: call.toolCallId } });
  await sub.sendMessage({ text: call.input.task });
  await sub.settled();
  return { sub, row: await chatRow(sub.id) };
}

/** Starts a sub-chat as the browser does and returns once its run is running (its answer still streaming). */
async function startRunningSub(parent: NodeChat, call: Call) {
  const sub = new NodeChat({
    id: uid('sub'),
    baseUrl: t.baseUrl,
    body: { agentId: call.input.subAgentId, parentChatId: parent.id, parentToolCallId: call.toolCallId },
  });
  const sending = sub.sendMessage({ text: call.input.task });
  await waitFor(`sub-chat ${sub.id} running`, async () => ((await t.isAnswering(sub.id)) ? true : undefined));
  return { sub, sending };
}

const chatRow = async (id: string) => withStatus((await t.handle.db.select().from(chat).where(eq(chat.id, id)))[0]!);
const stop = (chatId: string) => t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' });

/** Delivers the browser's (deliberately wrong) output for an ended sub-chat and returns what the server stored for the call. */
async function deliver(parent: NodeChat, call: Call, subChatId: string) {
  parent.addToolOutput({
    tool: 'newTask',
    toolCallId: call.toolCallId,
    output: {
      result: 'whatever the browser says',
      status: 'success',
      subChatId,
      outcome: 'success',
      usage: { inputTokens: 0, outputTokens: 0 },
      truncated: false,
    },
  });
  await parent.settled();
  const stored = await json(await t.request(`${ws}/chats/${parent.id}`));
  return stored.messages[1].parts.find((p: { toolCallId?: string }) => p.toolCallId === call.toolCallId);
}

beforeAll(async () => {
  await createAgent('Leaf');
  await createAgent('Middle', { subAgentIds: [agents.Leaf!.id] });
  await createAgent('Root', {
    subAgentIds: [agents.Middle!.id],
    delegation: { maxDepth: 2, generalPurpose: true, contextMode: 'full', maxResultChars: 100 },
  });
  await createAgent('Pair', { subAgentIds: [agents.Leaf!.id], delegation: { maxConcurrent: 2 } });
  await createAgent('Budget', { subAgentIds: [agents.Leaf!.id], delegation: { maxTokensPerDelegation: 400 } });
  await createAgent('Tree', { subAgentIds: [agents.Leaf!.id], delegation: { maxTokensPerTree: 600 } });
  await createAgent('Summarizer', { subAgentIds: [agents.Leaf!.id], delegation: { contextMode: 'summary' } });
});

describe('rules through the browser flow', () => {
  it('1. a depth-1 sub-chat delegates further on the server; the browser cannot start depth 2', async () => {
    const { parent, calls } = await delegate(agents.Root!.id, '/delegate Middle: /delegate Leaf: count the otters');
    const { sub, row } = await startSub(parent, calls[0]!);
    expect(row).toMatchObject({ depth: 1, outcome: 'success', contextMode: 'full', delegateContext: expect.stringContaining('User: /delegate Middle') });
    const nested = (await json(await t.request(`${ws}/chats/${sub.id}/sub-chats`))).data;
    expect(nested).toHaveLength(1);
    expect(nested[0]).toMatchObject({ depth: 2, agentId: agents.Leaf!.id, outcome: 'success' });
    const res = await t.request(`${ws}/chat`, {
      json: { id: uid('sub'), agentId: agents.Leaf!.id, parentChatId: sub.id, parentToolCallId: 'call_x', message: userMessage(uid('u'), 'x') },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toMatch(/deeper delegation runs on the server/);
  });

  it('2. general-purpose: the browser starts it with the parent’s own agent', async () => {
    const { parent, calls } = await delegate(agents.Root!.id, '/delegate general-purpose: think alone');
    expect(calls[0]!.input.subAgentId).toBe('general-purpose');
    const { row } = await startSub(parent, calls[0]!, agents.Root!.id);
    expect(row).toMatchObject({ agentId: agents.Root!.id, depth: 1, outcome: 'success' });
  });

  it('5/6/8. the server stores its own output for an ended sub-chat: outcome, usage, result cut to maxResultChars', async () => {
    const { parent, calls } = await delegate(
      agents.Root!.id,
      '/delegate Middle: write a result long enough to be cut by the cap of one hundred characters set by the root',
    );
    const { sub, row } = await startSub(parent, calls[0]!);
    parent.addToolOutput({
      tool: 'newTask',
      toolCallId: calls[0]!.toolCallId,
      output: {
        result: 'whatever the browser says',
        status: 'success',
        subChatId: sub.id,
        outcome: 'success',
        usage: { inputTokens: 0, outputTokens: 0 },
        truncated: false,
      },
    });
    await parent.settled();
    const stored = await json(await t.request(`${ws}/chats/${parent.id}`));
    const call = stored.messages[1].parts.find((p: { type: string }) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ outcome: 'success', truncated: true, subChatId: sub.id, result: expect.stringMatching(/Result truncated: 100 of/) });
    expect(call.output.usage.outputTokens).toBe(row.outputTokens);
    expect(stored.messages[1].metadata.usage.delegated).toEqual(call.output.usage);
  });

  it('5. one more depth-1 start than the root’s maxConcurrent is refused (409, nothing written); it starts once one has ended', async () => {
    const { parent, calls } = await delegate(
      agents.Pair!.id,
      '/delegate Leaf: [demo:stall] hold the first slot\n/delegate Leaf: [demo:stall] hold the second slot\n/delegate Leaf: the third task',
    );
    expect(calls).toHaveLength(3);
    const first = await startRunningSub(parent, calls[0]!);
    const second = await startRunningSub(parent, calls[1]!);
    const thirdId = uid('sub');
    const refused = await t.request(`${ws}/chat`, {
      json: {
        id: thirdId,
        agentId: agents.Leaf!.id,
        parentChatId: parent.id,
        parentToolCallId: calls[2]!.toolCallId,
        message: userMessage(uid('u'), calls[2]!.input.task),
      },
    });
    expect(refused.status).toBe(409);
    expect((await json(refused)).error).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/2 sub-agents of this answer are already running \(at most 2 at once\)/),
    });
    expect(await t.handle.db.select().from(chat).where(eq(chat.id, thirdId))).toEqual([]);

    expect(await json(await stop(first.sub.id))).toEqual({ stopped: true });
    await first.sending;
    expect(await chatRow(first.sub.id)).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
    const { row } = await startSub(parent, calls[2]!);
    expect(row).toMatchObject({ depth: 1, outcome: 'success' });
    await stop(second.sub.id);
    await second.sending;
  });

  it('7. a small per-delegation budget ends the browser’s sub-chat with a partial result holding its notes', async () => {
    const { parent, calls } = await delegate(agents.Budget!.id, '/delegate Leaf: [demo:work 50] keep going');
    const { sub, row } = await startSub(parent, calls[0]!);
    expect(row).toMatchObject({ outcome: 'budget_exhausted', status: 'error' });
    expect(row.notes.length).toBeGreaterThan(0);
    expect(row.notes.length).toBeLessThan(50);
    expect(row.notes[0]!.text).toMatch(/^Note 1 of 50: keep going/);
    // A limit: it stopped while the step and the final call still fitted (ADR 0016).
    expect(row.inputTokens + row.outputTokens).toBeLessThanOrEqual(400);
    // The partial result: the lead, what the sub-agent said when asked (its notes so far), and the stored notes.
    expect(row.delegateResult).toMatch(/ran out of its token budget[\s\S]*Partial result: Note 1 of 50[\s\S]*Notes:\n- Note 1 of 50/);
    expect(row.delegateResult).toContain(`- ${row.notes.at(-1)!.text}`);
    const call = await deliver(parent, calls[0]!, sub.id);
    expect(call.output).toMatchObject({ outcome: 'budget_exhausted', status: 'error', subChatId: sub.id, result: row.delegateResult });
  });

  it('7. maxTokensPerTree spans the siblings of one answer: the second gets what the first left, here too little', async () => {
    const { parent, calls } = await delegate(agents.Tree!.id, '/delegate Leaf: [demo:work 50] first sibling\n/delegate Leaf: [demo:work 50] second sibling');
    const first = await startSub(parent, calls[0]!);
    expect(first.row.outcome).toBe('budget_exhausted');
    expect(first.row.inputTokens + first.row.outputTokens).toBeLessThanOrEqual(600);
    const second = await startSub(parent, calls[1]!);
    // Left too little for a step and a final call, the second sub-agent still starts (a
    // browser start is never refused for its budget): it makes its first step, then stops
    // and returns a partial result like any sub-agent that ran out.
    expect(second.row.outcome).toBe('budget_exhausted');
    expect(second.row.notes).toHaveLength(1);
    expect(second.row.delegateResult).toMatch(/ran out of its token budget[\s\S]*Notes:\n- Note 1 of 50: second sibling/);
    const [secondRun] = await t.handle.db.select().from(run).where(eq(run.chatId, second.sub.id));
    expect(secondRun!.steps).toBe(1);
  });

  it('3. summary context started from the browser: stored on the sub-chat and given to the sub-agent before its task', async () => {
    const { parent, calls } = await delegate(agents.Summarizer!.id, '/delegate Leaf: use what we said');
    const { row } = await startSub(parent, calls[0]!);
    expect(row).toMatchObject({
      depth: 1,
      outcome: 'success',
      contextMode: 'summary',
      delegateContext: expect.stringMatching(/^Summary of the conversation so far:/),
    });
    expect(row.delegateContext).toContain('/delegate Leaf: use what we said');
    // The summary was written by a model call without tools.
    expect(t.demo.requests.some((r) => toolNames(r).length === 0 && JSON.stringify(r.messages).includes('Summarise the conversation'))).toBe(true);
    const subRequest = t.demo.requests.find(
      (r) => toolNames(r).includes('taskResult') && JSON.stringify(r.messages).includes(row.delegateContext!.slice(0, 60)),
    );
    const texts = subRequest!.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
    expect(texts[0]).toContain('Context from the conversation that delegated this task');
    expect(texts[0]).toContain('Summary of the conversation so far');
    expect(texts[1]).toContain('use what we said');
    // The context is not a stored message: the sub-chat's first message is the task.
    const stored = await json(await t.request(`${ws}/chats/${row.id}`));
    expect(stored.messages[0].parts).toEqual([{ type: 'text', text: 'use what we said' }]);
  });

  it('stopping a browser-started sub-chat stops the sub-agent it delegated to on the server', async () => {
    const { parent, calls } = await delegate(agents.Root!.id, '/delegate Middle: /delegate Leaf: [demo:stall] wait for ever');
    const { sub, sending } = await startRunningSub(parent, calls[0]!);
    const leaf = await waitFor('the depth-2 sub-agent running', async () => {
      const [row] = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, sub.id));
      return row && (await t.isAnswering(row.id)) ? row : undefined;
    });
    expect(await json(await stop(sub.id))).toEqual({ stopped: true });
    await sending;
    const runs = await t.handle.db
      .select()
      .from(run)
      .where(inArray(run.chatId, [sub.id, leaf.id]));
    expect(runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    for (const id of [sub.id, leaf.id]) expect(await chatRow(id)).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
  });
});
