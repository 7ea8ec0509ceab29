import { INTERRUPTED_MESSAGE, type BatonUIMessage } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { settleAndStoreRunEnd } from '../src/agent/runs/run-end';
import { admitRun, endRun, RUN_TRANSITIONS, transitionRuns, type AdmitDeps, type RunAdmission } from '../src/agent/runs/run-lifecycle';
import { recoverInterruptedRuns } from '../src/agent/runs/run-maintenance';
import { RunRegistry } from '../src/agent/runs/run-registry';
import { run, type RunStatus } from '../src/db/schema';
import { AppError } from '../src/errors';
import { findAgent, type AgentRow } from '../src/services/agents';
import { createChat } from '../src/services/chat-repository';
import { findRun } from '../src/services/runs';
import { json, useTestApp } from './support/test-app';

// The run lifecycle (agent/runs/run-lifecycle.ts) is the only writer of a run's existence
// and status: a run is admitted once per chat at a time, and a status moves only along the
// state machine, from the status the caller expects — a run found in another one stays as it is.
const t = useTestApp();
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;
let agent: AgentRow;
let deps: AdmitDeps;

beforeAll(async () => {
  const created = await json(await t.request('/api/workspaces/default/agents', { json: { name: 'Lifecycle' } }));
  agent = (await findAgent(t.handle.db, 'default', created.id))!;
  // The app's own registry is not used: runs admitted here are never executed.
  deps = { db: t.handle.db, runs: new RunRegistry() };
});

const owner = () => ({ workspaceId: 'default', userId: t.owner.userId });
const question = (): BatonUIMessage => ({ id: uid('u'), role: 'user', parts: [{ type: 'text', text: 'hi' }] });

async function newChat(): Promise<string> {
  return (await createChat(t.handle.db, owner(), { title: 'Lifecycle', agentId: agent.id })).id;
}

const admission = (): RunAdmission => ({ agent, history: [question()], mode: 'server' });

/** A request's admission, idle checked first as the REST turn does. */
const admitRequest = (chatId: string) =>
  admitRun(deps, { chat: { owner: owner(), id: chatId }, by: 'request' }, async ({ assertIdle, admit }) => {
    await assertIdle();
    return admit(admission());
  });

async function statusOf(runId: string): Promise<RunStatus | undefined> {
  return (await findRun(t.handle.db, runId))?.status;
}

async function runsOf(chatId: string) {
  return t.handle.db.select().from(run).where(eq(run.chatId, chatId));
}

describe('admitRun', () => {
  it('admits one running run per chat: a second one is refused (409) while the first runs, and admitted after it ended', async () => {
    const chatId = await newChat();
    const first = await admitRequest(chatId);
    expect(first.run).toMatchObject({ chatId, status: 'running', kind: 'turn', mode: 'server', basePartCount: 0 });
    expect(first.workspaceId).toBe('default');

    const refused = await admitRequest(chatId).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, code: 'conflict' });
    // Without the early check the insert itself is refused (the partial unique index).
    const inserted = await admitRun(deps, { chat: { owner: owner(), id: chatId }, by: 'request', busy: 'busy here' }, ({ admit }) => admit(admission())).catch(
      (err: unknown) => err,
    );
    expect(inserted).toMatchObject({ status: 409, message: 'busy here' });
    expect(await runsOf(chatId)).toHaveLength(1);

    expect(await endRun(t.handle.db, first.run.id, { status: 'succeeded' })).toBeDefined();
    const second = await admitRequest(chatId);
    expect(second.run.id).not.toBe(first.run.id);
    expect((await runsOf(chatId)).map((r) => r.status).sort()).toEqual(['running', 'succeeded']);
  });

  it('of two admissions at once, exactly one gets the run (the chat lock orders them)', async () => {
    const chatId = await newChat();
    const results = await Promise.allSettled([admitRequest(chatId), admitRequest(chatId), admitRequest(chatId)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409 });
    expect(await runsOf(chatId)).toHaveLength(1);
  });

  it('continues the assistant message the history ends with, its parts so far as the base', async () => {
    const chatId = await newChat();
    const answer: BatonUIMessage = { id: uid('a'), role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'so far' }] };
    const input = await admitRun(deps, { chat: { owner: owner(), id: chatId }, by: 'request' }, ({ admit }) =>
      admit({ agent, history: [question(), answer], mode: 'client' }),
    );
    expect(input.run).toMatchObject({ messageId: answer.id, basePartCount: 2, mode: 'client' });
  });

  it('the server continuing on its own admits nothing, quietly, where a request is refused', async () => {
    const chatId = await newChat();
    await admitRequest(chatId);
    const quiet = await admitRun(deps, { chat: { id: chatId }, by: 'server' }, async ({ assertIdle, admit }) => {
      await assertIdle();
      return admit(admission());
    });
    expect(quiet).toBeUndefined();
    expect(await admitRun(deps, { chat: { id: uid('gone') }, by: 'server' }, async () => 'reached')).toBeUndefined();
    await expect(admitRequest(uid('gone'))).rejects.toMatchObject({ status: 404 });
    expect(await runsOf(chatId)).toHaveLength(1);
  });

  it('admits nothing while the process shuts down: 503 for a request, nothing for the server', async () => {
    const chatId = await newChat();
    const draining = new RunRegistry();
    draining.draining = true;
    const shuttingDown = { db: t.handle.db, runs: draining };
    await expect(admitRun(shuttingDown, { chat: { owner: owner(), id: chatId }, by: 'request' }, ({ admit }) => admit(admission()))).rejects.toMatchObject({
      status: 503,
      code: 'unavailable',
    });
    expect(await admitRun(shuttingDown, { chat: { id: chatId }, by: 'server' }, ({ admit }) => admit(admission()))).toBeUndefined();
    expect(await runsOf(chatId)).toHaveLength(0);
  });
});

describe('status transitions (compare-and-set)', () => {
  it('the state machine has no way back: a move it lacks throws and changes nothing', async () => {
    const chatId = await newChat();
    const { run: row } = await admitRequest(chatId);
    await endRun(t.handle.db, row.id, { status: 'succeeded' });
    for (const [from, to] of [
      ['succeeded', 'running'],
      ['succeeded', 'cancelled'],
      ['interrupted', 'succeeded'],
      ['awaiting_approval', 'running'],
    ] as const) {
      expect((RUN_TRANSITIONS[from] as readonly RunStatus[]).includes(to)).toBe(false);
      await expect(transitionRuns(t.handle.db, { runId: row.id }, from, to as never)).rejects.toThrow(`a run never goes from ${from} to ${to}`);
    }
    expect(await statusOf(row.id)).toBe('succeeded');
  });

  it('a run not in `from` any more is left as it is, and the caller is told', async () => {
    const chatId = await newChat();
    const { run: row } = await admitRequest(chatId);
    // Not paused: settling a paused run finds none.
    expect(await transitionRuns(t.handle.db, { chatId }, 'awaiting_approval', 'succeeded')).toEqual([]);
    expect(await endRun(t.handle.db, row.id, { status: 'awaiting_approval' })).toEqual({ inputTokens: 0, outputTokens: 0 });
    // Ending it again: it is not running any more.
    expect(await endRun(t.handle.db, row.id, { status: 'failed', error: 'late' })).toBeUndefined();
    expect(await transitionRuns(t.handle.db, { chatId }, 'awaiting_approval', 'cancelled')).toEqual([row.id]);
    // Settled by someone else first: the second settle moves nothing.
    expect(await transitionRuns(t.handle.db, { chatId }, 'awaiting_approval', 'succeeded')).toEqual([]);
    const stored = await findRun(t.handle.db, row.id);
    expect(stored).toMatchObject({ status: 'cancelled', error: null });
    expect(stored!.endedAt).not.toBeNull();
  });

  it('a paused run settled by its continuation keeps the time it paused', async () => {
    const chatId = await newChat();
    const { run: row } = await admitRequest(chatId);
    await endRun(t.handle.db, row.id, { status: 'awaiting_approval' });
    const paused = (await findRun(t.handle.db, row.id))!.endedAt;
    expect(await transitionRuns(t.handle.db, { chatId }, 'awaiting_approval', 'succeeded')).toEqual([row.id]);
    expect(await findRun(t.handle.db, row.id)).toMatchObject({ status: 'succeeded', endedAt: paused });
  });

  it('a run that recovery marked interrupted cannot be ended by its late process: the recovery’s end stands', async () => {
    const chatId = await newChat();
    const { run: row } = await admitRequest(chatId);
    // Its process stopped heartbeating (the whole database's running runs are stale with a limit of 0 ms).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const recovered = await recoverInterruptedRuns(t.handle.db, 0);
    expect(recovered.map((r) => r.id)).toContain(row.id);
    expect(await findRun(t.handle.db, row.id)).toMatchObject({ status: 'interrupted', error: INTERRUPTED_MESSAGE });

    const late: BatonUIMessage = { id: row.messageId, role: 'assistant', parts: [{ type: 'text', text: 'finished after all' }] };
    const stored = await settleAndStoreRunEnd(t.handle.db, row, { status: 'succeeded', message: late, steps: 1 });
    expect(stored).toBe(false);
    expect(await findRun(t.handle.db, row.id)).toMatchObject({ status: 'interrupted', error: INTERRUPTED_MESSAGE });
    const answer = await json(await t.request(`/api/workspaces/default/chats/${chatId}`));
    expect(answer.messages.map((m: { id: string }) => m.id)).toEqual([row.messageId]);
    expect(JSON.stringify(answer.messages)).not.toContain('finished after all');
  });
});
