import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { NodeChat, postStream, toolParts } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { waitFor } from './support/wait';

// Issue 17, bug 1: in the browser flow, several calls of one answer wait for approval and
// are decided one after the other. What the API must do for the browser to run each
// approved call: every decision is 200 with no run (the browser runs approved calls), the
// stored chat shows every approved call `approval-responded` (with its edited task) until
// the browser's continuation brings the outputs, a sub-chat start is accepted exactly for
// approved calls, and the continuation carrying every output continues the answer.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents: Record<string, { id: string; name: string }> = {};
let n = 0;
const uid = (p: string): string => `${p}_${Date.now().toString(36)}_${n++}`;

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
}

beforeAll(async () => {
  await createAgent('Researcher');
  await createAgent('Writer');
  await createAgent('Gatekeeper', { subAgentIds: [agents.Researcher!.id, agents.Writer!.id], delegation: { requireApproval: true } });
});

const getChat = async (id: string) => json(await t.request(`${ws}/chats/${id}`));
const decide = (chatId: string, toolCallId: string, body: unknown) => t.request(`${ws}/chats/${chatId}/approvals/${toolCallId}`, { json: body });
const subChats = async (parentId: string) => (await t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId))).map(withStatus);
const storedCalls = async (chatId: string) => toolParts((await getChat(chatId)).messages.at(-1), 'newTask');

type Call = { toolCallId: string; input: { subAgentId: string; task: string } };

/** The browser's part for one approved call: run its sub-chat to the end, and the output it hands the parent. */
async function runSubChat(parentId: string, call: Call) {
  const agentId = call.input.subAgentId;
  const sub = new NodeChat({ id: uid('sub'), baseUrl: t.baseUrl, body: { agentId, parentChatId: parentId, parentToolCallId: call.toolCallId } });
  await sub.sendMessage({ text: call.input.task });
  await sub.settled();
  const row = (await subChats(parentId)).find((c) => c.parentToolCallId === call.toolCallId)!;
  expect(row).toMatchObject({ status: 'success', delegateTask: call.input.task });
  const output = {
    result: row.delegateResult!,
    status: 'success',
    subChatId: row.id,
    outcome: 'success',
    usage: { inputTokens: 0, outputTokens: 0 },
    truncated: false,
  };
  return { toolCallId: call.toolCallId, output };
}

/** Starting a sub-chat the way the browser does, without reading its answer. */
const startSubChat = (parentId: string, call: Call) =>
  postStream(`${t.baseUrl}${ws}/chat`, {
    id: uid('sub'),
    agentId: call.input.subAgentId,
    parentChatId: parentId,
    parentToolCallId: call.toolCallId,
    message: { id: uid('msg'), role: 'user', parts: [{ type: 'text', text: call.input.task }] },
  });

async function pausedBrowserAnswer() {
  const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Gatekeeper!.id } });
  await parent.sendMessage({ text: '/delegate Researcher: facts about otters\n/delegate Writer: a note about beavers' });
  await parent.settled();
  const calls = toolParts(parent.lastMessage, 'newTask');
  expect(calls.map((c) => c.state)).toEqual(['approval-requested', 'approval-requested']);
  return { parent, calls: calls as unknown as Call[] };
}

const readStored = async (parent: NodeChat) => {
  parent.messages = (await getChat(parent.id)).messages.map((m: any) => ({ id: m.id, role: m.role, parts: m.parts, metadata: m.metadata }));
};

describe('browser flow: two calls approved one after the other', () => {
  it.each([
    { order: 'first, then second', reverse: false, edit: false },
    { order: 'second, then first', reverse: true, edit: false },
    { order: 'first, then second, each with an edited task', reverse: false, edit: true },
  ])('$order: each approved call starts its sub-chat, and the answer continues with both outputs', async ({ reverse, edit }) => {
    const { parent, calls } = await pausedBrowserAnswer();
    const [a, b] = reverse ? [calls[1]!, calls[0]!] : [calls[0]!, calls[1]!];
    const decision = (c: Call) => (edit ? { approve: true, task: `${c.input.task} (edited)` } : { approve: true });

    const one = await json(await decide(parent.id, a.toolCallId, decision(a)));
    expect(one).toMatchObject({ decision: 'approved', run: null, pendingApprovals: [{ toolCallId: b.toolCallId }] });
    // The one still waiting cannot be started; the approved one can, and runs to its end.
    expect((await startSubChat(parent.id, b)).status).toBe(409);
    await readStored(parent);
    const approvedA = toolParts(parent.lastMessage, 'newTask').find((c) => c.toolCallId === a.toolCallId) as unknown as Call;
    const outA = await runSubChat(parent.id, approvedA);

    // Deciding the other one after the first sub-agent has finished (its output not sent yet).
    const two = await json(await decide(parent.id, b.toolCallId, decision(b)));
    expect(two).toMatchObject({ decision: 'approved', run: null, pendingApprovals: [] });
    expect(await t.isAnswering(parent.id)).toBe(false);
    const stored = await storedCalls(parent.id);
    expect(stored.map((c) => c.state)).toEqual(['approval-responded', 'approval-responded']);
    if (edit) expect(stored.map((c) => c.input.task)).toEqual(['facts about otters (edited)', 'a note about beavers (edited)']);

    // The browser keeps the first output and runs the second call.
    await readStored(parent);
    await parent.addToolOutput({ tool: 'newTask', ...outA } as never);
    const approvedB = toolParts(parent.lastMessage, 'newTask').find((c) => c.toolCallId === b.toolCallId) as unknown as Call;
    const outB = await runSubChat(parent.id, approvedB);
    await parent.addToolOutput({ tool: 'newTask', ...outB } as never);
    await parent.settled();

    const done = await waitFor('the continued answer ends', async () => {
      const c = await getChat(parent.id);
      return c.activeRun === null && toolParts(c.messages.at(-1), 'newTask').every((p) => p.state === 'output-available') ? c : undefined;
    });
    const last = done.messages.at(-1);
    expect(toolParts(last, 'newTask').map((p) => p.output.outcome)).toEqual(['success', 'success']);
    expect(last.parts.filter((p: { type: string }) => p.type === 'text').length).toBeGreaterThan(0);
    expect(done.pendingApprovals).toEqual([]);
    expect(await subChats(parent.id)).toHaveLength(2);
  });

  it('both approved before either runs: both sub-chats start', async () => {
    const { parent, calls } = await pausedBrowserAnswer();
    const [a, b] = calls as [Call, Call];
    expect((await json(await decide(parent.id, a.toolCallId, { approve: true }))).pendingApprovals).toHaveLength(1);
    expect(await json(await decide(parent.id, b.toolCallId, { approve: true }))).toMatchObject({ run: null, pendingApprovals: [] });
    const outs = await Promise.all([runSubChat(parent.id, a), runSubChat(parent.id, b)]);
    await readStored(parent);
    for (const out of outs) await parent.addToolOutput({ tool: 'newTask', ...out } as never);
    await parent.settled();
    const done = await waitFor('the continued answer ends', async () => {
      const c = await getChat(parent.id);
      return c.activeRun === null && toolParts(c.messages.at(-1), 'newTask').every((p) => p.state === 'output-available') ? c : undefined;
    });
    expect(toolParts(done.messages.at(-1), 'newTask').map((p) => p.output.outcome)).toEqual(['success', 'success']);
  });
});
