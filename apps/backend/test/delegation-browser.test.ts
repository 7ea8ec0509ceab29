import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, message } from '../src/db/schema';
import { subChatStatus } from '../src/services/sub-chat-state';
import { NodeChat, postStream, toolParts, userMessage } from './support/chat-client';
import { systemPrompt, toolNames } from './support/demo-model';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { isToolCallPart, withCallState, type ToolCallState } from '@baton/delegation';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;
const agents: Record<string, { id: string; name: string }> = {};

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} does ${name.toLowerCase()} things`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
  return agents[name];
}

beforeAll(async () => {
  await createAgent('Researcher');
  await createAgent('Writer');
  await createAgent('Checker');
  // A sub-agent that has sub-agents itself: as a sub-agent it must still not get newTask.
  await createAgent('Editor', { subAgentIds: [agents.Checker!.id] });
  await createAgent('Lead', { subAgentIds: [agents.Researcher!.id, agents.Writer!.id, agents.Editor!.id] });
  await createAgent('Solo');
});

/** What the browser delivers for a call (the server replaces it with its own once the sub-chat has ended). */
const taskOutput = (result: string, status: 'success' | 'error', subChatId: string | null) => ({
  result,
  status,
  subChatId,
  outcome: status,
  usage: { inputTokens: 0, outputTokens: 0 },
  truncated: false,
});

function parentChat(agentId: string) {
  return new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId } });
}

async function delegate(parent: NodeChat, text: string) {
  await parent.sendMessage({ text });
  await parent.settled();
  return toolParts(parent.lastMessage, 'newTask');
}

/** Runs the sub-chat for one pending call the way the browser modal does. */
async function runSubChat(parent: NodeChat, call: { toolCallId: string; input: { subAgentId: string; task: string } }) {
  const sub = new NodeChat({
    id: uid('sub'),
    baseUrl: t.baseUrl,
    body: { agentId: call.input.subAgentId, parentChatId: parent.id, parentToolCallId: call.toolCallId },
  });
  await sub.sendMessage({ text: call.input.task });
  await sub.settled();
  return sub;
}

describe('tool offering', () => {
  it('offers newTask (and lists the sub-agents) only to a top-level chat whose agent has sub-agents', async () => {
    const parent = parentChat(agents.Lead!.id);
    await parent.sendMessage({ text: 'hello' });
    await parent.settled();
    const req = t.demo.requests.at(-1)!;
    expect(toolNames(req)).toEqual(['newTask']);
    const prompt = systemPrompt(req);
    for (const name of ['Researcher', 'Writer', 'Editor']) expect(prompt).toContain(`- ${name} (id: ${agents[name]!.id})`);
    expect(req.tools![0]!.function.description).toContain(agents.Researcher!.id);

    const solo = parentChat(agents.Solo!.id);
    await solo.sendMessage({ text: 'hello' });
    await solo.settled();
    expect(toolNames(t.demo.requests.at(-1)!)).toEqual([]);
  });

  it('offers taskResult and note, not newTask, to a sub-agent with sub-agents when the root allows depth 1 only', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Editor: polish the intro');
    expect(call).toMatchObject({ state: 'input-available', input: { subAgentId: agents.Editor!.id, task: 'polish the intro' } });
    const sub = await runSubChat(parent, call!);
    const subRequest = t.demo.requests.at(-1)!;
    expect(toolNames(subRequest)).toEqual(['note', 'taskResult']);
    expect(systemPrompt(subRequest)).toMatch(/finish by calling the `taskResult` tool/);
    expect(toolParts(sub.lastMessage, 'taskResult')[0]?.input).toMatchObject({ status: 'success' });
  });
});

describe('the delegation round trip (browser flow)', () => {
  it('parent → newTask pending → sub-chat → taskResult → addToolOutput → parent continues with the result', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Researcher: find three facts about otters');
    expect(parent.lastMessage!.role).toBe('assistant');
    expect(call!.state).toBe('input-available');

    const sub = await runSubChat(parent, call!);
    const [taskResult] = toolParts(sub.lastMessage, 'taskResult');
    expect(taskResult!.input.status).toBe('success');
    const [subRow] = await t.handle.db.select().from(chat).where(eq(chat.id, sub.id));
    expect(withStatus(subRow!)).toMatchObject({
      parentChatId: parent.id,
      parentToolCallId: call!.toolCallId,
      agentId: agents.Researcher!.id,
      delegateTask: 'find three facts about otters',
      status: 'success',
      delegateResult: taskResult!.input.result,
    });

    parent.addToolOutput({ tool: 'newTask', toolCallId: call!.toolCallId, output: taskOutput(taskResult!.input.result, 'success', sub.id) });
    await parent.settled();
    const finalText = parent.lastMessage!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    expect(finalText).toContain(taskResult!.input.result.split('\n')[0]);

    // Stored: the same assistant message, extended with the output and the new text.
    const stored = await json(await t.request(`${ws}/chats/${parent.id}`));
    expect(stored.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    const storedCall = stored.messages[1].parts.find((p: { type: string }) => p.type === 'tool-newTask');
    expect(storedCall).toMatchObject({ state: 'output-available', output: { subChatId: sub.id, status: 'success' } });
    expect(stored.messages[1].id).toBe(parent.lastMessage!.id);
    const subs = await json(await t.request(`${ws}/chats/${parent.id}/sub-chats`));
    expect(subs.data.map((c: { id: string }) => c.id)).toEqual([sub.id]);
    // Sub-chats never appear in the top-level list.
    const list = await json(await t.request(`${ws}/chats?limit=100`));
    expect(list.data.map((c: { id: string }) => c.id)).not.toContain(sub.id);
    const subMessages = await t.handle.db.select().from(message).where(eq(message.chatId, sub.id));
    expect(subMessages.map((m) => m.role).sort()).toEqual(['assistant', 'user']);
  });

  it('runs three delegations of one step side by side', async () => {
    const parent = parentChat(agents.Lead!.id);
    const calls = await delegate(
      parent,
      ['/delegate Researcher: facts about otters', '/delegate Writer: a haiku about rivers', '/delegate Editor: check the title'].join('\n'),
    );
    expect(calls.map((c) => c.input.subAgentId)).toEqual([agents.Researcher!.id, agents.Writer!.id, agents.Editor!.id]);
    const subs = await Promise.all(calls.map((c) => runSubChat(parent, c)));
    for (const [i, sub] of subs.entries()) {
      const [tr] = toolParts(sub.lastMessage, 'taskResult');
      parent.addToolOutput({
        tool: 'newTask',
        toolCallId: calls[i]!.toolCallId,
        output: taskOutput(tr!.input.result, tr!.input.status, sub.id),
      });
    }
    await parent.settled();
    const text = parent.lastMessage!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    for (const name of ['Researcher', 'Writer', 'Editor']) expect(text).toContain(name);
    const rows = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, parent.id));
    expect(rows.map(subChatStatus)).toEqual(['success', 'success', 'success']);
  });

  it('a failing sub-agent is a result: status error reaches the parent, which carries on', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Writer: this task will fail');
    const sub = await runSubChat(parent, call!);
    const [tr] = toolParts(sub.lastMessage, 'taskResult');
    expect(tr!.input.status).toBe('error');
    const [row] = await t.handle.db.select().from(chat).where(eq(chat.id, sub.id));
    expect(subChatStatus(row!)).toBe('error');
    parent.addToolOutput({ tool: 'newTask', toolCallId: call!.toolCallId, output: taskOutput(tr!.input.result, 'error', sub.id) });
    await parent.settled();
    expect(parent.lastMessage!.parts.some((p) => p.type === 'text' && p.text.includes('(error)'))).toBe(true);
  });

  it('an error output for a still-running sub-chat cancels it (the user pressed Cancel)', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Researcher: something slow');
    const subId = uid('sub');
    // The sub-chat row exists and is running; the user cancels before it reports.
    await t.handle.db.insert(chat).values({
      id: subId,
      workspaceId: 'default',
      userId: t.owner.userId,
      agentId: agents.Researcher!.id,
      parentChatId: parent.id,
      parentToolCallId: call!.toolCallId,
      delegateTask: 'something slow',
    });
    parent.addToolOutput({ tool: 'newTask', toolCallId: call!.toolCallId, output: taskOutput('Cancelled by user', 'error', subId) });
    await parent.settled();
    const [row] = await t.handle.db.select().from(chat).where(eq(chat.id, subId));
    expect(row).toMatchObject({ outcome: 'cancelled', delegateResult: 'Cancelled by user' });
  });
});

describe('sub-chat validation', () => {
  async function attempt(body: Record<string, unknown>) {
    const before = await t.snapshot();
    const res = await t.request(`${ws}/chat`, { json: { id: uid('sub'), message: userMessage(uid('u'), 'task'), ...body } });
    expect(await t.snapshot()).toBe(before);
    return { status: res.status, message: (await json(res)).error?.message as string };
  }

  it('enforces every rule, writing nothing when it rejects', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Researcher: rule checks');
    const base = { agentId: agents.Researcher!.id, parentChatId: parent.id, parentToolCallId: call!.toolCallId };

    const other = await json(await t.request('/api/workspaces', { json: { name: 'Other' } }));
    const foreignAgent = await json(await t.request(`/api/workspaces/${other.id}/agents`, { json: { name: 'R' } }));
    const foreign = await postStream(`${t.baseUrl}/api/workspaces/${other.id}/chat`, {
      id: uid('chat'),
      agentId: foreignAgent.id,
      message: userMessage(uid('u'), 'x'),
    });
    expect(foreign.status).toBe(200);
    const foreignChatId = (await json(await t.request(`/api/workspaces/${other.id}/chats`))).data[0].id;

    expect(await attempt({ ...base, parentChatId: foreignChatId })).toMatchObject({ status: 400, message: expect.stringMatching(/parentChatId/) });
    expect(await attempt({ ...base, agentId: agents.Solo!.id })).toMatchObject({ status: 400, message: expect.stringMatching(/not a sub-agent/) });
    expect(await attempt({ ...base, agentId: agents.Writer!.id })).toMatchObject({ status: 400, message: expect.stringMatching(/does not delegate to/) });
    expect(await attempt({ ...base, parentToolCallId: undefined })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/parentToolCallId is required/),
    });

    const sub = await runSubChat(parent, call!);
    // A sub-chat cannot be a parent (depth 1).
    expect(await attempt({ agentId: agents.Checker!.id, parentChatId: sub.id, parentToolCallId: 'call_x' })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/depth/),
    });
    // The call now has a sub-chat; once it has an output, no new sub-chat may start for it.
    const [tr] = toolParts(sub.lastMessage, 'taskResult');
    parent.addToolOutput({ tool: 'newTask', toolCallId: call!.toolCallId, output: taskOutput(tr!.input.result, 'success', sub.id) });
    await parent.settled();
    expect(await attempt(base)).toMatchObject({ status: 400, message: expect.stringMatching(/already has an output/) });
  });

  it('waits briefly for a call it has not seen yet, then rejects an unknown call id', async () => {
    const parent = parentChat(agents.Lead!.id);
    await delegate(parent, '/delegate Researcher: anything');
    const started = Date.now();
    const result = await attempt({ agentId: agents.Researcher!.id, parentChatId: parent.id, parentToolCallId: 'call_never' });
    expect(result).toMatchObject({ status: 400, message: expect.stringMatching(/no pending newTask call/) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
  });

  it('waits for a call the stored snapshot still shows half-written, as the browser may see it complete first', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Researcher: seen early');
    // The parent's last snapshot was taken mid-step: the call is stored as still being written.
    const [stored] = await t.handle.db
      .select()
      .from(message)
      .where(and(eq(message.chatId, parent.id), eq(message.role, 'assistant')));
    const setState = (state: ToolCallState) =>
      t.handle.db
        .update(message)
        .set({ parts: stored!.parts.map((p) => (isToolCallPart(p) && p.toolCallId === call!.toolCallId ? withCallState(p, { state }) : p)) })
        .where(eq(message.id, stored!.id));
    await setState('input-streaming');
    const start = t.request(`${ws}/chat`, {
      json: {
        id: uid('sub'),
        message: userMessage(uid('u'), 'task'),
        agentId: agents.Researcher!.id,
        parentChatId: parent.id,
        parentToolCallId: call!.toolCallId,
      },
    });
    await new Promise((r) => setTimeout(r, 500));
    // …then the step ends and is stored with the call complete.
    await setState('input-available');
    const res = await start;
    expect(res.status, await res.clone().text()).toBe(200);
    await res.text();
  });

  it('rejects sub-chats for calls beyond the batch limit of 10', async () => {
    const parent = parentChat(agents.Lead!.id);
    const lines = Array.from({ length: 11 }, (_, i) => `/delegate Researcher: task number ${i + 1}`);
    const calls = await delegate(parent, lines.join('\n'));
    expect(calls).toHaveLength(11);
    const tenth = await attempt({ agentId: agents.Researcher!.id, parentChatId: parent.id, parentToolCallId: calls[10]!.toolCallId });
    expect(tenth).toMatchObject({ status: 400, message: expect.stringMatching(/beyond the limit of 10/) });
    const first = await runSubChat(parent, calls[0]!);
    expect(first.lastMessage!.role).toBe('assistant');
  });

  it('rejects a forged newTask output that names someone else’s sub-chat', async () => {
    const parent = parentChat(agents.Lead!.id);
    const [call] = await delegate(parent, '/delegate Researcher: forged');
    const last = parent.lastMessage!;
    const forged = {
      ...last,
      parts: last.parts.map((p: any) =>
        p.toolCallId === call!.toolCallId ? { ...p, state: 'output-available', output: taskOutput('x', 'success', 'chat_other') } : p,
      ),
    };
    const res = await t.request(`${ws}/chat`, { json: { id: parent.id, message: forged } });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toMatch(/subChatId/);
    const rows = await t.handle.db
      .select()
      .from(message)
      .where(and(eq(message.chatId, parent.id), eq(message.id, last.id)));
    expect(JSON.stringify(rows[0]!.parts)).not.toContain('chat_other');
  });
});
