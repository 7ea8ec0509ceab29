import { INTERRUPTED_SUB_AGENT_RESULT } from '@baton/delegation';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BackendProcess, startBackend, workspaceApi, sendInBackground } from './support/backend-process';
import { postStream, storedRunError, userMessage } from './support/chat-client';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait';
import type { StoredPart } from './support/messages';

// kill -9 of the real backend process while a depth-2 delegation is under way (the root's
// sub-agent waits for its own server-side sub-agent, whose model stalls), then a restart
// on the same database. Every level that had not finished must end `interrupted` — runs,
// sub-chat rows and the newTask call above each — and the root chat must go on.
const ws = '/api/workspaces/default';
const onPostgres = Boolean(process.env.DATABASE_URL);
type Stored = {
  id: string;
  role: string;
  parts: StoredPart[];
  outcome: string | null;
  status: string | null;
  activeRun: unknown;
  depth: number;
  messages?: Stored[];
};
type Node = { chatId: string; depth: number; status: string | null; outcome: string | null; endedAt: string | null; children: Node[] };

const newTaskCall = (m: { parts: StoredPart[] } | undefined) => m?.parts.find((p) => p.type === 'tool-newTask');

describe('kill -9 mid depth-2 delegation, then a restart on the same database', () => {
  const processes: BackendProcess[] = [];
  let dataDir = '';
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let env: Record<string, string | undefined> = {};
  let agents: Record<'Lead' | 'Middle' | 'Leaf', { id: string }>;

  afterAll(async () => {
    for (const p of processes) await p.kill();
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function start() {
    const p = await startBackend(env);
    processes.push(p);
    return p;
  }

  async function setUp() {
    if (onPostgres) {
      database = await createTestDatabase();
      // A restarted process on Postgres recovers a dead one's runs once their heartbeat is stale.
      env = { DATABASE_URL: database.url, REDIS_URL: undefined, BATON_RUN_HEARTBEAT_MS: '300', BATON_RUN_STALE_AFTER_MS: '1500', BATON_RUN_SWEEP_MS: '300' };
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'baton-delegation-crash-'));
      env = { DATABASE_URL: undefined, REDIS_URL: undefined, BATON_DATA_DIR: dataDir };
    }
    env = { ...env, PORT: '0', DEMO_LLM_DELAY_MS: '15' };
    const a = await start();
    const create = async (name: string, body: Record<string, unknown> = {}) =>
      (await workspaceApi(a).post('/agents', { name, description: `${name} agent`, ...body })).body;
    const Leaf = await create('Leaf');
    const Middle = await create('Middle', { subAgentIds: [Leaf.id] });
    const Lead = await create('Lead', { subAgentIds: [Middle.id], delegation: { maxDepth: 2 } });
    agents = { Lead, Middle, Leaf };
    return a;
  }

  /** The depth-2 sub-chat below a depth-1 one, once its model has started writing (it then stalls). */
  async function stalledLeafBelow(a: BackendProcess, middleId: () => Promise<string | undefined>) {
    return waitFor(
      'the depth-2 sub-agent is writing',
      async () => {
        const mid = await middleId();
        if (!mid) return undefined;
        const [leaf] = (await workspaceApi(a).get(`/chats/${mid}/sub-chats`))?.data ?? [];
        if (!leaf) return undefined;
        const stored = await workspaceApi(a).get(`/chats/${leaf.id}`);
        return stored.messages.some((m: Stored) => m.role === 'assistant' && m.parts.some((p) => p.type === 'text'))
          ? { middle: mid, leaf: leaf.id as string }
          : undefined;
      },
      20_000,
    );
  }

  /** What recovery must leave at every level: nothing running, the unfinished levels interrupted. */
  async function expectInterruptedTree(b: BackendProcess, rootId: string, ids: { middle: string; leaf: string }) {
    const api = workspaceApi(b);
    const leaf: Stored = await waitFor('the depth-2 sub-chat is recovered', async () => {
      const c = await api.get(`/chats/${ids.leaf}`);
      return c && c.activeRun === null ? c : undefined;
    });
    expect(leaf).toMatchObject({ depth: 2, outcome: 'interrupted', activeRun: null });
    expect(leaf.status).not.toBe('running');
    expect(storedRunError(leaf.messages?.at(-1))?.code).toBe('interrupted');

    const middle = await waitFor('the depth-1 sub-chat is recovered', async () => {
      const c = await api.get(`/chats/${ids.middle}`);
      return c && c.activeRun === null ? c : undefined;
    });
    expect(middle).toMatchObject({ depth: 1, outcome: 'interrupted', activeRun: null });
    expect(middle.status).not.toBe('running');
    // Its own newTask call (to Leaf) got a final output naming Leaf's outcome: no "running" progress left.
    const middleCall = newTaskCall(middle.messages.at(-1));
    expect(middleCall).toMatchObject({
      state: 'output-available',
      output: { outcome: 'interrupted', subChatId: ids.leaf, result: INTERRUPTED_SUB_AGENT_RESULT },
    });
    expect(middleCall!.preliminary).toBeUndefined();

    const root = await api.get(`/chats/${rootId}`);
    expect(root.activeRun).toBeNull();
    const trace = await api.get(`/chats/${rootId}/trace`);
    const [mid] = trace.root.children as Node[];
    expect(mid).toMatchObject({ chatId: ids.middle, depth: 1, status: 'interrupted', outcome: 'interrupted', endedAt: expect.any(String) });
    expect(mid!.children).toEqual([
      expect.objectContaining({ chatId: ids.leaf, depth: 2, status: 'interrupted', outcome: 'interrupted', endedAt: expect.any(String) }),
    ]);
    return root;
  }

  it('REST flow: every level interrupted, the root call says so, the chat goes on', async () => {
    const a = await setUp();
    const rootId = (await workspaceApi(a).post('/chats', { agentId: agents.Lead.id })).body.id as string;
    sendInBackground(a, rootId, '/delegate Middle: /delegate Leaf: count the otters [demo:stall]');
    const ids = await stalledLeafBelow(a, async () => (await workspaceApi(a).get(`/chats/${rootId}/sub-chats`))?.data?.[0]?.id);
    await a.kill();

    const b = await start();
    const root = await expectInterruptedTree(b, rootId, ids);
    const rootCall = newTaskCall(root.messages.at(-1));
    expect(rootCall).toMatchObject({ state: 'output-available', output: { outcome: 'interrupted', subChatId: ids.middle } });
    expect(rootCall!.preliminary).toBeUndefined();
    const trace = await workspaceApi(b).get(`/chats/${rootId}/trace`);
    expect(trace.root).toMatchObject({ chatId: rootId, depth: 0, status: 'interrupted' });

    const next = await workspaceApi(b).post(`/chats/${rootId}/messages`, { text: 'what now?' });
    expect(next.status).toBe(200);
    expect(next.body.error).toBeUndefined();
    await b.stop();
  }, 90_000);

  it('browser flow: the browser-started depth-1 sub-chat and its server-side sub-agent are interrupted; the browser delivers and the root goes on', async () => {
    const a = await start();
    const rootId = `chat_crash_root_${Date.now()}`;
    const first = await postStream(`${a.url}${ws}/chat`, {
      id: rootId,
      agentId: agents.Lead.id,
      message: userMessage(`u_${Date.now()}`, '/delegate Middle: /delegate Leaf: weigh the otters [demo:stall]'),
    });
    expect(first.status).toBe(200);
    const root0 = await workspaceApi(a).get(`/chats/${rootId}`);
    const call = newTaskCall(root0.messages.at(-1))!;
    expect(call).toMatchObject({ state: 'input-available', input: { subAgentId: agents.Middle.id } });
    const middleId = `chat_crash_mid_${Date.now()}`;
    void postStream(`${a.url}${ws}/chat`, {
      id: middleId,
      agentId: agents.Middle.id,
      parentChatId: rootId,
      parentToolCallId: call.toolCallId,
      message: userMessage(`u_mid_${Date.now()}`, call.input.task),
    });
    const ids = await stalledLeafBelow(a, async () => middleId);
    await a.kill();

    const b = await start();
    const root = await expectInterruptedTree(b, rootId, ids);
    // The root's call is the browser's to deliver; whatever it says, the server stores the sub-chat's own outcome.
    expect(newTaskCall(root.messages.at(-1))).toMatchObject({ state: 'input-available' });
    const lastRoot = root.messages.at(-1) as Stored;
    const delivered = await postStream(`${b.url}${ws}/chat`, {
      id: rootId,
      message: {
        ...lastRoot,
        parts: lastRoot.parts.map((p) =>
          p.toolCallId === call.toolCallId
            ? {
                ...p,
                state: 'output-available',
                output: {
                  result: 'all fine',
                  status: 'success',
                  subChatId: middleId,
                  outcome: 'success',
                  usage: { inputTokens: 0, outputTokens: 0 },
                  truncated: false,
                },
              }
            : p,
        ),
      },
    });
    expect(delivered.status).toBe(200);
    const after = await workspaceApi(b).get(`/chats/${rootId}`);
    expect(after.activeRun).toBeNull();
    expect(newTaskCall(after.messages.at(-1))).toMatchObject({ state: 'output-available', output: { outcome: 'interrupted', subChatId: middleId } });
    const again = await postStream(`${b.url}${ws}/chat`, { id: rootId, message: userMessage(`u2_${Date.now()}`, 'what now?') });
    expect(again.status).toBe(200);
    await b.stop();
  }, 90_000);
});
