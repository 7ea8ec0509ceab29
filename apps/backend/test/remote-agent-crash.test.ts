import { startA2AAgentSim, type A2AAgentSim } from '@baton/a2a-agent-sim';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BackendProcess, startBackend, workspaceApi, sendInBackground } from './support/backend-process';
import type { StoredPart } from './support/messages';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait';

// kill -9 of the real backend while a remote A2A agent (a scripted @a2a-js/sdk server in this
// process) works on a delegated task. Stop would have sent tasks/cancel; a dead process cannot,
// so the restarted one's recovery does — else the remote agent works on for nobody — and the
// sub-chat ends interrupted like a local sub-agent's.
const onPostgres = Boolean(process.env.DATABASE_URL);
type StoredMessage = { role: string; parts: StoredPart[]; metadata?: { remoteTaskId?: string } };

describe('kill -9 while a remote A2A agent works on a delegated task, then a restart', () => {
  const processes: BackendProcess[] = [];
  let sim: A2AAgentSim | undefined;
  let dataDir = '';
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  afterAll(async () => {
    for (const p of processes) await p.kill();
    await sim?.close();
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('the restarted backend cancels the remote task, and the sub-chat ends interrupted', async () => {
    sim = await startA2AAgentSim({ stepMs: 100 });
    let env: Record<string, string | undefined>;
    if (onPostgres) {
      database = await createTestDatabase();
      env = { DATABASE_URL: database.url, BATON_RUN_HEARTBEAT_MS: '300', BATON_RUN_STALE_AFTER_MS: '1500', BATON_RUN_SWEEP_MS: '300' };
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'baton-remote-crash-'));
      env = { DATABASE_URL: undefined, BATON_DATA_DIR: dataDir };
    }
    env = { ...env, REDIS_URL: undefined, PORT: '0', BATON_ALLOW_PRIVATE_URLS: 'true' };
    const start = async () => {
      const p = await startBackend(env);
      processes.push(p);
      return p;
    };

    const a = await start();
    const remote = (await workspaceApi(a).post('/agents', { name: 'Remote', remote: { cardUrl: sim.url } })).body;
    const lead = (await workspaceApi(a).post('/agents', { name: 'Lead', subAgentIds: [remote.id] })).body;
    const rootId = (await workspaceApi(a).post('/chats', { agentId: lead.id })).body.id as string;
    sendInBackground(a, rootId, '/delegate Remote: a slow survey of the otters');

    // The remote agent is at work and the sub-chat has stored which task it follows.
    const { subChatId, taskId } = await waitFor(
      'the remote task under way, its id stored',
      async () => {
        const [sub] = (await workspaceApi(a).get(`/chats/${rootId}/sub-chats`))?.data ?? [];
        if (!sub) return undefined;
        const stored = await workspaceApi(a).get(`/chats/${sub.id}`);
        const answer = (stored?.messages as StoredMessage[] | undefined)?.findLast((m) => m.role === 'assistant');
        const working = answer?.parts.some((p) => p.type === 'text' && /Still working/.test(String(p.text)));
        const id = answer?.metadata?.remoteTaskId;
        return working && id ? { subChatId: sub.id as string, taskId: id } : undefined;
      },
      20_000,
    );
    expect(sim.log.cancelRequests).toEqual([]);
    await a.kill();

    const b = await start();
    await waitFor('the remote task cancelled by recovery', async () => (sim!.log.cancelRequests.includes(taskId) ? true : undefined), 20_000);
    const sub = await waitFor('the sub-chat recovered', async () => {
      const c = await workspaceApi(b).get(`/chats/${subChatId}`);
      return c && c.activeRun === null ? c : undefined;
    });
    expect(sub).toMatchObject({ outcome: 'interrupted', activeRun: null });
    expect(b.output()).toContain('cancelled the remote A2A task of an interrupted run');
    await b.stop();
  }, 90_000);
});
