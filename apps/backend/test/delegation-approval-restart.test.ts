import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BackendProcess, startBackend, workspaceApi } from './support/backend-process';
import { storedRunError } from './support/chat-client';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait';
import type { StoredToolCall } from './support/messages';

// A pending approval is stored, not held in memory: the backend is killed (-9, no shutdown
// code) and restarted on the same database while an answer waits for approval. Recovery
// must leave it alone — not `interrupted`, still listed — and approving it after the
// restart runs the sub-agent and continues the answer.
const onPostgres = Boolean(process.env.DATABASE_URL);
type Stored = { messages: { id: string; parts: StoredToolCall[] }[]; pendingApprovals: any[]; activeRun: unknown };

describe('a pending approval survives kill -9 and a restart', () => {
  const processes: BackendProcess[] = [];

  afterAll(async () => {
    for (const p of processes) await p.kill();
    for (const database of databases) await database.close();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  const dataDirs: string[] = [];

  /** A fresh database and a starter for backend processes on it (a restart is a second start). */
  async function freshBackend() {
    let env: Record<string, string | undefined>;
    if (onPostgres) {
      const database = await createTestDatabase();
      databases.push(database);
      // A restarted process recovers a dead one's running runs once their heartbeat is stale: give it the chance.
      env = { DATABASE_URL: database.url, REDIS_URL: undefined, BATON_RUN_HEARTBEAT_MS: '300', BATON_RUN_STALE_AFTER_MS: '1500', BATON_RUN_SWEEP_MS: '300' };
    } else {
      const dataDir = await mkdtemp(join(tmpdir(), 'baton-approval-restart-'));
      dataDirs.push(dataDir);
      env = { DATABASE_URL: undefined, REDIS_URL: undefined, BATON_DATA_DIR: dataDir };
    }
    env = { ...env, PORT: '0', DEMO_LLM_DELAY_MS: '5' };
    return async () => {
      const p = await startBackend(env);
      processes.push(p);
      return p;
    };
  }

  it('REST flow: still awaiting after the restart, then approved and finished', async () => {
    const start = await freshBackend();
    const a = await start();
    const api = workspaceApi(a);
    const researcher = (await api.post('/agents', { name: 'Scout', description: 'Finds facts' })).body;
    const lead = (await api.post('/agents', { name: 'Gatekeeper', subAgentIds: [researcher.id], delegation: { requireApproval: true } })).body;
    const chatId = (await api.post('/chats', { agentId: lead.id })).body.id as string;
    const paused = await api.post(`/chats/${chatId}/messages`, { text: '/delegate Scout: count the otters' });
    expect(paused.status).toBe(200);
    expect(paused.body.run.status).toBe('awaiting_approval');
    const call = paused.body.messages.at(-1).parts.find((p: StoredToolCall) => p.type === 'tool-newTask') as StoredToolCall;
    await a.kill();

    const b = await start();
    const api2 = workspaceApi(b);
    // Long enough for the Postgres sweep to have run several times.
    if (onPostgres) await new Promise((r) => setTimeout(r, 2_500));
    const stored: Stored = await api2.get(`/chats/${chatId}`);
    expect(stored.activeRun).toBeNull();
    expect(stored.pendingApprovals).toEqual([expect.objectContaining({ toolCallId: call.toolCallId, subAgentName: 'Scout', task: 'count the otters' })]);
    const answer = stored.messages.at(-1)!;
    expect(answer.parts.find((p) => p.toolCallId === call.toolCallId)?.state).toBe('approval-requested');
    // Not mistaken for an answer cut off by the crash.
    expect(storedRunError(answer)).toBeUndefined();
    expect((await api2.get(`/chats/${chatId}/sub-chats`)).data).toEqual([]);

    const approved = await api2.post(`/chats/${chatId}/approvals/${call.toolCallId}`, { approve: true, task: 'count the sea otters' });
    expect(approved.status).toBe(200);
    // Ended: no run, and text after the call. The paused answer already had text before it, and
    // while the sub-agent works on the server the chat has no run either (a loaded machine showed it).
    const done: Stored = await waitFor('the resumed answer ends', async () => {
      const c = await api2.get(`/chats/${chatId}`);
      const parts: StoredToolCall[] = c.messages.at(-1).parts;
      const callAt = parts.findIndex((p) => p.toolCallId === call.toolCallId);
      return c.activeRun === null && parts.slice(callAt + 1).some((p) => p.type === 'text') ? c : undefined;
    });
    const finished = done.messages.at(-1)!.parts.find((p) => p.toolCallId === call.toolCallId)!;
    expect(finished).toMatchObject({ state: 'output-available', input: { task: 'count the sea otters' }, output: { outcome: 'success' } });
    expect(done.pendingApprovals).toEqual([]);
    await b.stop();
  }, 90_000);

  it('nested: a sub-agent paused below the root survives too; approved after the restart, its result flows up and the root answer goes on', async () => {
    const start = await freshBackend();
    const a = await start();
    const api = workspaceApi(a);
    const leaf = (await api.post('/agents', { name: 'Leaf', description: 'Counts' })).body;
    const middle = (await api.post('/agents', { name: 'Middle', description: 'Delegates', subAgentIds: [leaf.id] })).body;
    const root = (await api.post('/agents', { name: 'Root', subAgentIds: [middle.id], delegation: { requireApproval: true, maxDepth: 2 } })).body;
    const chatId = (await api.post('/chats', { agentId: root.id })).body.id as string;
    const paused = await api.post(`/chats/${chatId}/messages`, { text: '/delegate Middle: /delegate Leaf: count the otters' });
    const call = paused.body.messages.at(-1).parts.find((p: StoredToolCall) => p.type === 'tool-newTask') as StoredToolCall;
    expect((await api.post(`/chats/${chatId}/approvals/${call.toolCallId}`, { approve: true })).status).toBe(200);
    // The answers above the waiting call pause too: nothing runs while a person decides.
    const waiting: Stored = await waitFor('the depth-2 call waits and the root answer has paused', async () => {
      const c = await api.get(`/chats/${chatId}`);
      return c.pendingApprovals.length === 1 && c.activeRun === null ? c : undefined;
    });
    const nested = waiting.pendingApprovals[0];
    expect((await api.get(`/chats/${nested.chatId}`)).activeRun).toBeNull();
    await a.kill();

    const b = await start();
    const api2 = workspaceApi(b);
    // Long enough for the Postgres sweep to have run several times.
    if (onPostgres) await new Promise((r) => setTimeout(r, 2_500));
    const after: Stored = await api2.get(`/chats/${chatId}`);
    expect(after.activeRun).toBeNull();
    expect(after.pendingApprovals).toEqual([expect.objectContaining({ chatId: nested.chatId, toolCallId: nested.toolCallId, subAgentName: 'Leaf' })]);
    const rootCall = after.messages.at(-1)!.parts.find((p) => p.toolCallId === call.toolCallId)!;
    expect(rootCall.output?.outcome).toBeUndefined();
    expect(storedRunError(after.messages.at(-1)!)).toBeUndefined();
    expect(await api2.get(`/chats/${nested.chatId}`)).toMatchObject({ status: 'running', activeRun: null });
    // Still not a chat that takes new messages: the answer waits for its delegation.
    expect((await api2.post(`/chats/${chatId}/messages`, { text: 'what now?' })).status).toBe(409);

    const approved = await api2.post(`/chats/${nested.chatId}/approvals/${nested.toolCallId}`, { approve: true, task: 'count the river otters' });
    expect(approved.status).toBe(200);
    const done: Stored = await waitFor('the root answer continued to its end', async () => {
      const c = await api2.get(`/chats/${chatId}`);
      const last = c.messages.at(-1);
      const output = last.parts.find((p: StoredToolCall) => p.toolCallId === call.toolCallId)?.output;
      return c.activeRun === null && output?.outcome && last.parts.at(-1)?.type === 'text' ? c : undefined;
    });
    const answer = done.messages.at(-1)!;
    expect(answer.id).toBe(paused.body.messages.at(-1).id);
    expect(answer.parts.find((p) => p.toolCallId === call.toolCallId)).toMatchObject({
      state: 'output-available',
      output: { outcome: 'success', subChatId: nested.chatId, result: expect.stringContaining('count the river otters') },
    });
    expect(done.pendingApprovals).toEqual([]);
    const middleChat = await api2.get(`/chats/${nested.chatId}`);
    expect(middleChat).toMatchObject({ status: 'success', outcome: 'success', activeRun: null });
    const [leafChat] = (await api2.get(`/chats/${nested.chatId}/sub-chats`)).data;
    expect(leafChat).toMatchObject({ delegateTask: 'count the river otters', outcome: 'success', depth: 2 });
    expect((await api2.post(`/chats/${chatId}/messages`, { text: 'what now?' })).status).toBe(200);
    await b.stop();
  }, 90_000);
  it('nested: the resumed sub-agent’s process dies; recovery ends it interrupted and the paused root answer goes on with that outcome', async () => {
    const start = await freshBackend();
    const a = await start();
    const api = workspaceApi(a);
    const leaf = (await api.post('/agents', { name: 'Leaf', description: 'Waits' })).body;
    const middle = (await api.post('/agents', { name: 'Middle', description: 'Delegates', subAgentIds: [leaf.id] })).body;
    const root = (await api.post('/agents', { name: 'Root', subAgentIds: [middle.id], delegation: { requireApproval: true, maxDepth: 2 } })).body;
    const chatId = (await api.post('/chats', { agentId: root.id })).body.id as string;
    const paused = await api.post(`/chats/${chatId}/messages`, { text: '/delegate Middle: /delegate Leaf: count the otters' });
    const call = paused.body.messages.at(-1).parts.find((p: StoredToolCall) => p.type === 'tool-newTask') as StoredToolCall;
    await api.post(`/chats/${chatId}/approvals/${call.toolCallId}`, { approve: true });
    const nested = await waitFor('the root answer pauses above the waiting call', async () => {
      const c = await api.get(`/chats/${chatId}`);
      return c.pendingApprovals.length === 1 && c.activeRun === null ? c.pendingApprovals[0] : undefined;
    });
    // Approved with a task that keeps the leaf waiting for instructions: Middle is running when the process dies.
    expect((await api.post(`/chats/${nested.chatId}/approvals/${nested.toolCallId}`, { approve: true, task: 'count the otters [demo:steer]' })).status).toBe(
      200,
    );
    await waitFor('the leaf runs', async () => ((await api.get(`/chats/${nested.chatId}/sub-chats`)).data[0]?.status === 'running' ? true : undefined));
    await a.kill();

    const b = await start();
    const api2 = workspaceApi(b);
    const done: Stored = await waitFor(
      'the root answer went on after the recovery',
      async () => {
        const c = await api2.get(`/chats/${chatId}`);
        const last = c.messages.at(-1);
        return c.activeRun === null && last.parts.at(-1)?.type === 'text' ? c : undefined;
      },
      20_000,
    );
    expect(done.messages.at(-1)!.parts.find((p) => p.toolCallId === call.toolCallId)).toMatchObject({
      state: 'output-available',
      output: { outcome: 'interrupted', subChatId: nested.chatId },
    });
    expect(await api2.get(`/chats/${nested.chatId}`)).toMatchObject({ outcome: 'interrupted' });
    await b.stop();
  }, 90_000);
});
