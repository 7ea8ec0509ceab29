import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenUsage } from '@baton/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { type BackendProcess, startBackend, workspaceApi, sendInBackground } from './support/backend-process';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait';

// kill -9 of the real backend process while a sub-agent works through many note steps, then
// a restart on the same database (PGlite, or Postgres with DATABASE_URL): the tokens its
// steps spent before the crash were stored as they accrued, so the recovered sub-chat, the
// parent's roll-up and the delegation tree still count them — with the steps.
const onPostgres = Boolean(process.env.DATABASE_URL);
const tokens = (u: TokenUsage) => u.inputTokens + u.outputTokens;

describe('tokens spent before a crash', () => {
  const processes: BackendProcess[] = [];
  let dataDir = '';
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  afterAll(async () => {
    for (const p of processes) await p.kill();
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 mid-task, restart: the interrupted sub-chat keeps the tokens and steps its stored answer shows', async () => {
    let env: Record<string, string | undefined>;
    if (onPostgres) {
      database = await createTestDatabase();
      env = { DATABASE_URL: database.url, REDIS_URL: undefined, BATON_RUN_HEARTBEAT_MS: '300', BATON_RUN_STALE_AFTER_MS: '1500', BATON_RUN_SWEEP_MS: '300' };
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'baton-usage-crash-'));
      env = { DATABASE_URL: undefined, REDIS_URL: undefined, BATON_DATA_DIR: dataDir };
    }
    env = { ...env, PORT: '0', DEMO_LLM_DELAY_MS: '10' };
    const a = await startBackend(env);
    processes.push(a);
    const writer = (await workspaceApi(a).post('/agents', { name: 'Scribe', description: 'writes' })).body;
    const lead = (await workspaceApi(a).post('/agents', { name: 'Chief', subAgentIds: [writer.id] })).body;
    const parentId = (await workspaceApi(a).post('/chats', { agentId: lead.id })).body.id as string;
    sendInBackground(a, parentId, '/delegate Scribe: draft the long report [demo:work 40]');
    // Until a snapshot with a few steps' usage is stored (the live view shows the same numbers).
    const subId = await waitFor(
      'a sub-agent a few steps in, stored',
      async () => {
        const [sub] = (await workspaceApi(a).get(`/chats/${parentId}/sub-chats`))?.data ?? [];
        if (!sub) return undefined;
        const stored = await workspaceApi(a).get(`/chats/${sub.id}`);
        const usage = stored.messages.at(-1)?.metadata?.usage?.own as TokenUsage | undefined;
        return stored.notes.length >= 4 && usage && tokens(usage) > 0 ? (sub.id as string) : undefined;
      },
      30_000,
    );
    await a.kill();

    const b = await startBackend(env);
    processes.push(b);
    const api = workspaceApi(b);
    const sub = await waitFor('the sub-chat is recovered', async () => {
      const c = await api.get(`/chats/${subId}`);
      return c && c.activeRun === null && c.outcome === 'interrupted' ? c : undefined;
    });
    const shown: TokenUsage = sub.messages.at(-1).metadata.usage.own;
    expect(tokens(shown)).toBeGreaterThan(0);
    // Stored with the same snapshot as the message (or a later one): never less than it shows.
    expect(sub.usage.own.inputTokens).toBeGreaterThanOrEqual(shown.inputTokens);
    expect(sub.usage.own.outputTokens).toBeGreaterThanOrEqual(shown.outputTokens);
    const parent = await api.get(`/chats/${parentId}`);
    expect(parent.usage.delegated).toEqual(sub.usage.own);
    const trace = await api.get(`/chats/${parentId}/trace`);
    expect(trace.root.children[0]).toMatchObject({ chatId: subId, status: 'interrupted', usage: sub.usage.own });
    // Four notes: three steps had ended (the fourth was writing its note).
    expect(trace.root.children[0].steps).toBeGreaterThanOrEqual(3);
    await b.stop();
  }, 150_000);
});
