import { INTERRUPTED_SUB_AGENT_RESULT } from '@baton/delegation';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { recoverInterruptedRuns } from '../src/agent/runs/run-maintenance';
import { chat, message, run } from '../src/db/schema';
import { storedRunError } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { storedParts } from './support/messages';

// What a process that died leaves behind, as rows, and what recovery makes of it. The
// real kill -9 of real processes is in run-crash.test.ts and replicas.test.ts.
const t = useTestApp();
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

async function deadRun(values: {
  chatId: string;
  kind: 'turn' | 'sub_agent';
  mode: 'client' | 'server';
  messageId: string;
  staleSeconds: number;
  owner?: string;
}) {
  const id = uid('run');
  await t.handle.db.insert(run).values({ id, workspaceId: 'default', owner: 'dead-process', ...values });
  await t.handle.db
    .update(run)
    .set({ heartbeatAt: sql`now() - ${values.staleSeconds}::int * interval '1 second'` })
    .where(eq(run.id, id));
  return id;
}

describe('recovery of runs whose process died', () => {
  it('REST delegation cut off: sub-chat ends error, the parent call gets it as its output, nothing stays running', async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Crashy' } }));
    const parentId = uid('chat');
    const subId = uid('sub');
    const parentMsg = uid('msg');
    const subMsg = uid('msg');
    await t.handle.db.insert(chat).values({ id: parentId, workspaceId: 'default', userId: t.owner.userId, agentId: agent.id });
    await t.handle.db.insert(message).values([
      { id: uid('u'), chatId: parentId, role: 'user', parts: [{ type: 'text', text: 'go' }], seq: 1 },
      {
        id: parentMsg,
        chatId: parentId,
        role: 'assistant',
        seq: 2,
        parts: storedParts([
          { type: 'step-start' },
          { type: 'text', text: 'Delegating 2 tasks.', state: 'done' },
          // The one whose sub-agent was still working: a progress report stands in for its result.
          {
            type: 'tool-newTask',
            toolCallId: 'call_run',
            state: 'output-available',
            input: { subAgentId: agent.id, task: 'a' },
            output: { status: 'running', subChatId: subId, steps: 1, preview: '' },
            preliminary: true,
          },
          // One that had not even finished its input.
          { type: 'tool-newTask', toolCallId: 'call_half', state: 'input-streaming', input: { subAgentId: agent.id } },
          { type: 'tool-calculator', toolCallId: 'call_calc', state: 'input-available', input: { expression: '1+1' } },
        ]),
      },
    ]);
    await t.handle.db.insert(chat).values({
      id: subId,
      workspaceId: 'default',
      userId: t.owner.userId,
      agentId: agent.id,
      parentChatId: parentId,
      parentToolCallId: 'call_run',
      delegateTask: 'a',
      depth: 1,
    });
    await t.handle.db.insert(message).values([
      { id: uid('u'), chatId: subId, role: 'user', parts: [{ type: 'text', text: 'a' }], seq: 1 },
      { id: subMsg, chatId: subId, role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'Working on', state: 'streaming' }], seq: 2 },
    ]);
    const parentRun = await deadRun({ chatId: parentId, kind: 'turn', mode: 'server', messageId: parentMsg, staleSeconds: 40 });
    const subRun = await deadRun({ chatId: subId, kind: 'sub_agent', mode: 'server', messageId: subMsg, staleSeconds: 40 });
    // Another process's run that is alive (fresh heartbeat) is left alone.
    const aliveChat = uid('chat');
    await t.handle.db.insert(chat).values({ id: aliveChat, workspaceId: 'default', userId: t.owner.userId, agentId: agent.id });
    const aliveRun = await deadRun({ chatId: aliveChat, kind: 'turn', mode: 'client', messageId: uid('msg'), staleSeconds: 2, owner: 'alive-process' });

    const claimed = await recoverInterruptedRuns(t.handle.db, 30_000);
    expect(claimed.map((r) => r.id).sort()).toEqual([parentRun, subRun].sort());
    expect(claimed[0]!.id).toBe(subRun);

    const runs = Object.fromEntries((await t.handle.db.select().from(run)).map((r) => [r.id, r.status]));
    expect(runs[parentRun]).toBe('interrupted');
    expect(runs[subRun]).toBe('interrupted');
    expect(runs[aliveRun]).toBe('running');

    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.id, subId));
    expect(withStatus(sub!)).toMatchObject({ status: 'error', outcome: 'interrupted', delegateResult: INTERRUPTED_SUB_AGENT_RESULT });
    const subChat = await json(await t.request(`${ws}/chats/${subId}`));
    expect(subChat.messages[1].parts[1].text).toBe('Working on');
    expect(storedRunError(subChat.messages[1])?.code).toBe('interrupted');

    const parent = await json(await t.request(`${ws}/chats/${parentId}`));
    const parts = parent.messages[1].parts as { type: string; toolCallId?: string; state?: string; output?: any; preliminary?: boolean }[];
    const byCall = Object.fromEntries(parts.filter((p) => p.toolCallId).map((p) => [p.toolCallId, p]));
    expect(byCall.call_run).toMatchObject({ state: 'output-available', output: { status: 'error', result: INTERRUPTED_SUB_AGENT_RESULT, subChatId: subId } });
    expect(byCall.call_run!.preliminary).toBeUndefined();
    expect(byCall.call_half).toMatchObject({ state: 'output-error' });
    expect(byCall.call_calc).toMatchObject({ state: 'output-error' });
    expect(storedRunError(parent.messages[1])?.code).toBe('interrupted');
    expect(parent.activeRun).toBeNull();

    // Usable: the next message runs, and the model accepts the repaired history.
    const next = await t.request(`${ws}/chats/${parentId}/messages`, { json: { text: 'and now?' } });
    expect(next.status).toBe(200);
    expect((await json(next)).error).toBeUndefined();
  });

  it('a turn that died before storing anything gets an answer with the interrupted notice', async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Crashy early' } }));
    const chatId = uid('chat');
    await t.handle.db.insert(chat).values({ id: chatId, workspaceId: 'default', userId: t.owner.userId, agentId: agent.id });
    await t.handle.db.insert(message).values({ id: uid('u'), chatId, role: 'user', parts: [{ type: 'text', text: 'hi' }], seq: 1 });
    const messageId = uid('msg');
    await deadRun({ chatId, kind: 'turn', mode: 'client', messageId, staleSeconds: 60 });
    await recoverInterruptedRuns(t.handle.db, 30_000);
    const stored = await json(await t.request(`${ws}/chats/${chatId}`));
    expect(stored.messages.map((m: { id: string }) => m.id)).toEqual([stored.messages[0].id, messageId]);
    expect(storedRunError(stored.messages[1])).toMatchObject({ code: 'interrupted', message: expect.stringMatching(/Interrupted/) });
  });

  it('a browser delegation keeps its pending call for the browser; the interrupted sub-chat carries the reason', async () => {
    const helper = await json(await t.request(`${ws}/agents`, { json: { name: 'Crashy helper' } }));
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Crashy browser', subAgentIds: [helper.id] } }));
    const parentId = uid('chat');
    const subId = uid('sub');
    const subMsg = uid('msg');
    await t.handle.db.insert(chat).values({ id: parentId, workspaceId: 'default', userId: t.owner.userId, agentId: agent.id });
    await t.handle.db.insert(message).values({
      id: uid('msg'),
      chatId: parentId,
      role: 'assistant',
      seq: 1,
      parts: [{ type: 'step-start' }, { type: 'tool-newTask', toolCallId: 'call_b', state: 'input-available', input: { subAgentId: helper.id, task: 'b' } }],
    });
    await t.handle.db.insert(chat).values({
      id: subId,
      workspaceId: 'default',
      userId: t.owner.userId,
      agentId: helper.id,
      parentChatId: parentId,
      parentToolCallId: 'call_b',
      depth: 1,
    });
    await deadRun({ chatId: subId, kind: 'sub_agent', mode: 'client', messageId: subMsg, staleSeconds: 60 });
    await recoverInterruptedRuns(t.handle.db, 30_000);
    const sub = await json(await t.request(`${ws}/chats/${subId}`));
    expect(sub).toMatchObject({ status: 'error', delegateResult: INTERRUPTED_SUB_AGENT_RESULT });
    // The browser delivers it on the next load; its start again with the same call is refused (one sub-chat per call).
    const again = await t.request(`${ws}/chat`, {
      json: {
        id: uid('sub'),
        agentId: helper.id,
        parentChatId: parentId,
        parentToolCallId: 'call_b',
        message: { id: uid('u'), role: 'user', parts: [{ type: 'text', text: 'x' }] },
      },
    });
    expect(again.status).toBe(409);
    expect((await json(again)).error.details).toEqual({ subChatId: subId });
  });
});
