import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, message, run } from '../src/db/schema';
import { NodeChat, postStream, toolParts } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { waitFor } from './support/wait';
import type { StoredToolCall } from './support/messages';

// Approval before spawning (the root agent's delegation.requireApproval): the answer pauses
// with its newTask calls in `approval-requested` (run `awaiting_approval`), nothing is spent
// until a person decides, and POST …/approvals/:toolCallId resumes it.
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
  await createAgent('Trusting', { subAgentIds: [agents.Researcher!.id] });
});

const newChat = async (agent = 'Gatekeeper') => json(await t.request(`${ws}/chats`, { json: { agentId: agents[agent]!.id } }));
const getChat = async (id: string) => json(await t.request(`${ws}/chats/${id}`));
const decide = (chatId: string, toolCallId: string, body: unknown) => t.request(`${ws}/chats/${chatId}/approvals/${toolCallId}`, { json: body });
const calls = (m: { parts: StoredToolCall[] } | undefined) => (m?.parts ?? []).filter((p) => p.type === 'tool-newTask');
const subChats = async (parentId: string) => (await t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId))).map(withStatus);
const textAfterCalls = (m: { parts: StoredToolCall[] }) =>
  m.parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('\n');

/** A REST turn that pauses: its stored answer, the run and what GET …/chats/:id lists. */
async function pausedTurn(text: string) {
  const c = await newChat();
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const body = await json(res);
  return { chatId: c.id as string, answer: body.messages.at(-1), run: body.run };
}

/**
 * The chat once the resumed answer has ended: no run, and every call of the answer has its
 * output. No run alone is not enough: while an approved sub-agent works on the server, the
 * paused answer has no run either (seen on Postgres under CI's load).
 */
const settledChat = (id: string) =>
  waitFor('the resumed answer ends', async () => {
    const c = await getChat(id);
    const finished = calls(c.messages.at(-1)).every((p) => p.output !== undefined);
    return c.activeRun === null && finished ? c : undefined;
  });

describe('REST: an answer pauses before spawning', () => {
  it('stops with the call awaiting approval: no sub-chat, no sub-agent model call; the chat lists it', async () => {
    const before = t.demo.requests.length;
    const { chatId, answer, run: paused } = await pausedTurn('/delegate Researcher: facts about otters');
    expect(paused.status).toBe('awaiting_approval');
    const [call] = calls(answer);
    expect(call).toMatchObject({ state: 'approval-requested', input: { subAgentId: agents.Researcher!.id, task: 'facts about otters' } });
    expect(call!.approval?.id).toEqual(expect.any(String));
    // The parent's one model call, nothing more.
    expect(t.demo.requests.length - before).toBe(1);
    expect(await subChats(chatId)).toHaveLength(0);

    const stored = await getChat(chatId);
    expect(stored.activeRun).toBeNull();
    expect(stored.pendingApprovals).toEqual([
      {
        chatId,
        toolCallId: call!.toolCallId,
        subAgentId: agents.Researcher!.id,
        subAgentName: 'Researcher',
        task: 'facts about otters',
        requestedAt: expect.any(String),
      },
    ]);
    // Still waiting after a while: the pause is stored, not a timer.
    const [row] = await t.handle.db.select().from(run).where(eq(run.id, paused.id));
    expect(row).toMatchObject({ status: 'awaiting_approval', endedAt: expect.any(Date) });
  });

  it('approve: the sub-agent runs, the answer continues in the same message, the paused run is settled', async () => {
    const { chatId, answer, run: paused } = await pausedTurn('/delegate Researcher: facts about otters');
    const [call] = calls(answer);
    const res = await decide(chatId, call!.toolCallId, { approve: true });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ toolCallId: call!.toolCallId, decision: 'approved', task: 'facts about otters', pendingApprovals: [] });
    expect(body.run).toMatchObject({ status: 'running', messageId: answer.id, basePartCount: answer.parts.length });

    const done = await settledChat(chatId);
    expect(done.pendingApprovals).toEqual([]);
    const last = done.messages.at(-1);
    expect(last.id).toBe(answer.id);
    const [finished] = calls(last);
    expect(finished).toMatchObject({ state: 'output-available', output: { outcome: 'success', subChatId: expect.any(String) } });
    const [sub] = await subChats(chatId);
    expect(sub).toMatchObject({ id: finished!.output.subChatId, delegateTask: 'facts about otters', status: 'success' });
    expect(textAfterCalls(last)).toContain(finished!.output.result.split('\n')[0]);
    const [old] = await t.handle.db.select().from(run).where(eq(run.id, paused.id));
    expect(old!.status).toBe('succeeded');
  });

  it('approve with an edited task: the sub-agent gets it and the stored call shows it', async () => {
    const { chatId, answer } = await pausedTurn('/delegate Researcher: facts about otters');
    const [call] = calls(answer);
    const body = await json(await decide(chatId, call!.toolCallId, { approve: true, task: '  facts about sea otters only  ' }));
    expect(body.task).toBe('facts about sea otters only');
    const done = await settledChat(chatId);
    const [finished] = calls(done.messages.at(-1));
    expect(finished!.input.task).toBe('facts about sea otters only');
    const [sub] = await subChats(chatId);
    expect(sub!.delegateTask).toBe('facts about sea otters only');
    const [first] = await t.handle.db.select().from(message).where(eq(message.chatId, sub!.id)).orderBy(message.seq).limit(1);
    expect((first!.parts[0] as StoredToolCall).text).toBe('facts about sea otters only');
    expect(finished!.output.result).toContain('sea otters');
  });

  it('reject: the parent gets outcome "rejected" with the reason and continues; nothing ran', async () => {
    const before = t.demo.requests.length;
    const { chatId, answer } = await pausedTurn('/delegate Researcher: facts about otters');
    const [call] = calls(answer);
    const body = await json(await decide(chatId, call!.toolCallId, { approve: false, reason: 'we already know enough about otters' }));
    expect(body).toMatchObject({ decision: 'rejected', run: { status: 'running' } });
    const done = await settledChat(chatId);
    const last = done.messages.at(-1);
    const [finished] = calls(last);
    expect(finished).toMatchObject({
      state: 'output-available',
      output: { outcome: 'rejected', status: 'error', subChatId: null, result: expect.stringContaining('we already know enough about otters') },
    });
    expect(finished!.approval).toBeUndefined();
    // The parent's continuation quotes the result (the demo model replies to tool results).
    expect(textAfterCalls(last)).toContain('rejected');
    expect(await subChats(chatId)).toHaveLength(0);
    // Two parent model calls (the pause, the continuation); none for a sub-agent.
    expect(t.demo.requests.length - before).toBe(2);
  });

  it('several calls of one step: each is decided on its own, the answer resumes after the last', async () => {
    const { chatId, answer } = await pausedTurn('/delegate Researcher: facts about otters\n/delegate Writer: a poem about otters');
    const [first, second] = calls(answer);
    expect((await getChat(chatId)).pendingApprovals).toHaveLength(2);

    const one = await json(await decide(chatId, second!.toolCallId, { approve: false }));
    expect(one).toMatchObject({ decision: 'rejected', run: null, pendingApprovals: [{ toolCallId: first!.toolCallId, subAgentName: 'Researcher' }] });
    expect(await t.isAnswering(chatId)).toBe(false);
    expect(await subChats(chatId)).toHaveLength(0);

    const two = await json(await decide(chatId, first!.toolCallId, { approve: true }));
    expect(two).toMatchObject({ decision: 'approved', pendingApprovals: [], run: { status: 'running' } });
    const done = await settledChat(chatId);
    const outputs = calls(done.messages.at(-1)).map((p) => p.output.outcome);
    expect(outputs).toEqual(['success', 'rejected']);
    expect(await subChats(chatId)).toHaveLength(1);
  });

  it('a new message while a call waits is 409, and nothing is written', async () => {
    const { chatId } = await pausedTurn('/delegate Researcher: facts about otters');
    const before = await t.snapshot();
    const res = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'never mind' } });
    expect(res.status).toBe(409);
    expect((await json(res)).error.message).toMatch(/waiting for approval/);
    expect(await t.snapshot()).toBe(before);
  });

  it('an agent without requireApproval still delegates at once', async () => {
    const c = await newChat('Trusting');
    const body = await json(await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/delegate Researcher: facts about otters' } }));
    expect(body.run.status).toBe('succeeded');
    expect(calls(body.messages.at(-1))[0]).toMatchObject({ state: 'output-available', output: { outcome: 'success' } });
  });
});

describe('POST …/approvals/:toolCallId refusals', () => {
  it('unknown chat or call → 404; decided call → 409; a call that never waited → 409; bad bodies → 400; nothing written', async () => {
    const { chatId, answer } = await pausedTurn('/delegate Researcher: facts about otters');
    const [call] = calls(answer);
    const snapshot = await t.snapshot();
    const cases: [string, string, unknown, number, RegExp][] = [
      ['chat_missing', call!.toolCallId, { approve: true }, 404, /not found/],
      [chatId, 'call_missing', { approve: true }, 404, /not found/],
      [chatId, call!.toolCallId, {}, 400, /approve/],
      [chatId, call!.toolCallId, { approve: 'yes' }, 400, /approve/],
      [chatId, call!.toolCallId, { approve: false, task: 'other' }, 400, /only accepted with approve: true/],
      [chatId, call!.toolCallId, { approve: true, reason: 'why' }, 400, /only accepted with approve: false/],
      [chatId, call!.toolCallId, { approve: true, task: '   ' }, 400, /empty/],
      [chatId, call!.toolCallId, { approve: true, extra: 1 }, 400, /extra|unrecognized/i],
    ];
    for (const [c, id, body, status, pattern] of cases) {
      const res = await decide(c, id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify((await json(res)).error)).toMatch(pattern);
    }
    expect(await t.snapshot()).toBe(snapshot);

    expect((await decide(chatId, call!.toolCallId, { approve: false })).status).toBe(200);
    await settledChat(chatId);
    const again = await decide(chatId, call!.toolCallId, { approve: true });
    expect(again.status).toBe(409);
    expect((await json(again)).error.message).toMatch(/already decided/);

    const plain = await newChat('Trusting');
    const done = await json(await t.request(`${ws}/chats/${plain.id}/messages`, { json: { text: '/delegate Researcher: facts' } }));
    const res = await decide(plain.id, calls(done.messages.at(-1))[0]!.toolCallId, { approve: true });
    expect(res.status).toBe(409);
    expect((await json(res)).error.message).toMatch(/not waiting for approval/);
  });

  it('two decisions on one call at once: exactly one wins, the other is 409', async () => {
    for (let i = 0; i < 5; i++) {
      const { chatId, answer } = await pausedTurn('/delegate Researcher: facts about otters');
      const [call] = calls(answer);
      const results = await Promise.all([decide(chatId, call!.toolCallId, { approve: true }), decide(chatId, call!.toolCallId, { approve: false })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const done = await settledChat(chatId);
      const winner = (await json(results.find((r) => r.status === 200)!)).decision;
      expect(calls(done.messages.at(-1))[0]!.output.outcome).toBe(winner === 'approved' ? 'success' : 'rejected');
      expect(await subChats(chatId)).toHaveLength(winner === 'approved' ? 1 : 0);
    }
  });
});

describe('contract', () => {
  it('is in the OpenAPI document: the route, its body and result, pendingApprovals, requireApproval, the run status', async () => {
    const doc = await json(await t.request('/api/openapi.json'));
    const op = doc.paths['/api/workspaces/{workspaceId}/chats/{chatId}/approvals/{toolCallId}']?.post;
    expect(op).toBeDefined();
    expect(JSON.stringify(op.requestBody)).toContain('ApprovalDecision');
    expect(JSON.stringify(op.responses[200])).toContain('#/components/schemas/ApprovalResult');
    const { ApprovalDecision, Chat, ChatWithMessages, DelegationSettings, Run } = doc.components.schemas;
    expect(Object.keys(ApprovalDecision.properties).sort()).toEqual(['approve', 'reason', 'task']);
    expect(JSON.stringify(ChatWithMessages.properties.pendingApprovals)).toContain('PendingApproval');
    expect(DelegationSettings.properties.requireApproval.type).toBe('boolean');
    expect(Run.properties.status.enum).toContain('awaiting_approval');
    expect(JSON.stringify(Chat.properties.outcome)).toContain('rejected');
  });
});

describe('browser flow: the server enforces the approval', () => {
  it('a sub-chat for a call awaiting approval is 409; once approved it starts, and the answer continues', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Gatekeeper!.id } });
    await parent.sendMessage({ text: '/delegate Researcher: facts about otters' });
    await parent.settled();
    const [call] = toolParts(parent.lastMessage, 'newTask');
    expect(call!.state).toBe('approval-requested');
    const stored = await getChat(parent.id);
    expect(stored.pendingApprovals).toHaveLength(1);
    const [pausedRun] = await t.handle.db.select().from(run).where(eq(run.chatId, parent.id));
    expect(pausedRun).toMatchObject({ status: 'awaiting_approval', mode: 'client' });

    const start = () =>
      postStream(`${t.baseUrl}${ws}/chat`, {
        id: uid('sub'),
        agentId: agents.Researcher!.id,
        parentChatId: parent.id,
        parentToolCallId: call!.toolCallId,
        message: { id: uid('msg'), role: 'user', parts: [{ type: 'text', text: 'facts about otters' }] },
      });
    const refused = await start();
    expect(refused.status).toBe(409);
    expect(await subChats(parent.id)).toHaveLength(0);

    const approved = await json(await decide(parent.id, call!.toolCallId, { approve: true, task: 'facts about river otters' }));
    // The browser runs the approved call itself: the server resumes nothing.
    expect(approved).toMatchObject({ decision: 'approved', run: null });
    expect(await t.isAnswering(parent.id)).toBe(false);

    // As the web app does: read the chat again, run the sub-chat, deliver its output.
    parent.messages = (await getChat(parent.id)).messages.map((m: any) => ({ id: m.id, role: m.role, parts: m.parts, metadata: m.metadata }));
    const [approvedCall] = toolParts(parent.lastMessage, 'newTask');
    expect(approvedCall).toMatchObject({ state: 'approval-responded', input: { task: 'facts about river otters' } });
    const sub = new NodeChat({
      id: uid('sub'),
      baseUrl: t.baseUrl,
      body: { agentId: agents.Researcher!.id, parentChatId: parent.id, parentToolCallId: call!.toolCallId },
    });
    await sub.sendMessage({ text: 'whatever the browser sends' });
    await sub.settled();
    const [row] = await subChats(parent.id);
    expect(row).toMatchObject({ delegateTask: 'facts about river otters', outcome: 'success' });
    await parent.addToolOutput({
      tool: 'newTask',
      toolCallId: call!.toolCallId,
      output: {
        result: row!.delegateResult!,
        status: 'success',
        subChatId: row!.id,
        outcome: 'success',
        usage: { inputTokens: 0, outputTokens: 0 },
        truncated: false,
      },
    } as never);
    await parent.settled();
    const done = await settledChat(parent.id);
    const last = done.messages.at(-1);
    expect(calls(last)[0]).toMatchObject({ state: 'output-available', output: { outcome: 'success', subChatId: row!.id } });
    expect(textAfterCalls(last).length).toBeGreaterThan(0);
  });

  it('rejecting every call resumes the answer on the server (nothing for the browser to run)', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Gatekeeper!.id } });
    await parent.sendMessage({ text: '/delegate Researcher: facts about otters' });
    await parent.settled();
    const [call] = toolParts(parent.lastMessage, 'newTask');
    const body = await json(await decide(parent.id, call!.toolCallId, { approve: false, reason: 'not now' }));
    expect(body.run).toMatchObject({ status: 'running' });
    const done = await settledChat(parent.id);
    expect(calls(done.messages.at(-1))[0]!.output).toMatchObject({ outcome: 'rejected', result: expect.stringContaining('not now') });
  });
});

describe('regenerating a paused answer', () => {
  it('replaces it: the new answer pauses again, and the old pause is settled', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Gatekeeper!.id } });
    await parent.sendMessage({ text: '/delegate Researcher: facts about otters' });
    await parent.settled();
    const [first] = await t.handle.db.select().from(run).where(eq(run.chatId, parent.id));
    expect(first!.status).toBe('awaiting_approval');
    const [oldCall] = toolParts(parent.lastMessage, 'newTask');
    await parent.regenerate();
    await parent.settled();
    const runs = await t.handle.db.select().from(run).where(eq(run.chatId, parent.id));
    expect(runs.find((r) => r.id === first!.id)!.status).toBe('succeeded');
    expect(runs.filter((r) => r.status === 'awaiting_approval')).toHaveLength(1);
    const stored = await getChat(parent.id);
    expect(stored.pendingApprovals).toHaveLength(1);
    const [newCall] = toolParts(parent.lastMessage, 'newTask');
    expect(stored.pendingApprovals[0].toolCallId).toBe(newCall!.toolCallId);
    expect(newCall!.toolCallId).not.toBe(oldCall!.toolCallId);
  });
});

describe('editing the question of a paused answer', () => {
  it('is allowed like Regenerate: the edited question is answered again and the old pause is settled', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Gatekeeper!.id } });
    await parent.sendMessage({ text: '/delegate Researcher: facts about otters' });
    await parent.settled();
    const [first] = await t.handle.db.select().from(run).where(eq(run.chatId, parent.id));
    expect(first!.status).toBe('awaiting_approval');
    const question = parent.messages.findLast((m) => m.role === 'user')!;
    await parent.sendMessage({ text: '/delegate Writer: a poem about beavers', messageId: question.id });
    await parent.settled();
    const runs = await t.handle.db.select().from(run).where(eq(run.chatId, parent.id));
    expect(runs.find((r) => r.id === first!.id)!.status).toBe('succeeded');
    const stored = await getChat(parent.id);
    expect(stored.messages).toHaveLength(2);
    expect(stored.pendingApprovals).toHaveLength(1);
    expect(stored.pendingApprovals[0].subAgentId).toBe(agents.Writer!.id);
    expect(stored.pendingApprovals[0].task).toBe('a poem about beavers');
  });
});
