import { INTERRUPTED_SUB_AGENT_RESULT } from '@baton/delegation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, workspaceApi, type BackendProcess, sendInBackground } from './support/backend-process';
import { waitFor } from './support/wait';
import { getStream, postStream, storedRunError, textOf, userMessage } from './support/chat-client';
import { createTestDatabase } from './support/test-db';
import { type StoredPart, partsText } from './support/messages';

// Two stateless backend processes on one Postgres and one Redis: a run started on A can
// be followed and stopped through B, and when A dies B repairs what A left running.
const ws = '/api/workspaces/default';
const onPostgres = Boolean(process.env.DATABASE_URL);
type Stored = { id: string; role: string; parts: StoredPart[]; metadata: any };

const api = workspaceApi;

describe.skipIf(!onPostgres)('two backend replicas on one Postgres and Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: BackendProcess;
  let b: BackendProcess;
  let agents: Record<string, { id: string }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      PORT: '0',
      DEMO_LLM_DELAY_MS: '15',
      // The default heartbeat (5 s): a Stop that arrives within a second can only have come through Redis.
      BATON_RUN_HEARTBEAT_MS: '5000',
      BATON_RUN_STALE_AFTER_MS: '12000',
      BATON_RUN_SWEEP_MS: '1000',
    };
    [a, b] = await Promise.all([startBackend(env), startBackend(env)]);
    agents = Object.fromEntries((await api(a).get('/agents')).data.map((x: { name: string; id: string }) => [x.name, x]));
  });

  afterAll(async () => {
    await a?.kill();
    await b?.kill();
    await database?.close();
  });

  it('both started on one fresh database: migrated and seeded exactly once', async () => {
    const names = (await api(b).get('/agents')).data.map((x: { name: string }) => x.name).sort();
    expect(names).toEqual(['Assistant', 'Researcher', 'Writer']);
  });

  it('a turn started on A is followed live through B and stopped through B', async () => {
    const chatId = `chat_rep_${Date.now()}`;
    const onA = postStream(`${a.url}${ws}/chat`, { id: chatId, agentId: agents.Writer!.id, message: userMessage(`u_${Date.now()}`, 'rivers '.repeat(600)) });
    await waitFor('A is answering', async () => ((await api(b).get(`/chats/${chatId}`))?.activeRun ? true : undefined));
    const viaB = getStream(`${b.url}${ws}/chats/${chatId}/stream`);
    await waitFor('the answer is under way', async () => (partsText((await api(b).get(`/chats/${chatId}`))?.messages[1]?.parts, '') ? true : undefined));
    const stopAt = Date.now();
    const stop = await api(b).post(`/chats/${chatId}/stop`);
    const stoppedAfter = Date.now() - stopAt;
    expect(stop.body).toEqual({ stopped: true });
    // Through Redis pub/sub, not the 5 s heartbeat (a loose bound: this is not a benchmark).
    expect(stoppedAfter).toBeLessThan(3_000);
    const [first, followed] = await Promise.all([onA, viaB]);
    expect(followed.status).toBe(200);
    expect(followed.chunks.length).toBeGreaterThan(5);
    expect(textOf(followed.chunks)).toBe(textOf(first.chunks));
    const stored = await api(b).get(`/chats/${chatId}`);
    expect(stored.activeRun).toBeNull();
    expect(stored.messages[1].metadata.stopped).toBe(true);
    expect(partsText(stored.messages[1]?.parts, '')).toBe(textOf(first.chunks));
  });

  it('a message sent through B to a sub-agent running on A reaches it at its next step (steering is stored, not in memory)', async () => {
    const chat = (await api(a).post('/chats', { agentId: agents.Assistant!.id })).body;
    const turn = api(a).post(`/chats/${chat.id}/messages`, { text: '/delegate Researcher: plan a trip [demo:steer]' });
    const sub = await waitFor('the sub-agent runs on A', async () =>
      (await api(b).get(`/chats/${chat.id}/sub-chats`))?.data.find((s: { status: string }) => s.status === 'running'),
    );
    const queued = await api(b).post(`/chats/${sub.id}/messages`, { text: 'Lisbon, via B' });
    expect(queued).toMatchObject({ status: 202, body: { status: 'queued' } });
    const { status, body } = await turn;
    expect(status).toBe(200);
    const call = (body.messages.at(-1) as Stored).parts.find((p) => p.type === 'tool-newTask')!;
    expect(call.output.result).toContain('Latest instruction: Lisbon, via B');
    expect((await api(a).get(`/chats/${sub.id}/steering`)).data).toEqual([expect.objectContaining({ id: queued.body.id, status: 'delivered' })]);
  });

  it('kill -9 of A mid-turn and mid-delegation: B marks the runs interrupted, the parent gets its error output, the chats go on', async () => {
    const delegating = (await api(a).post('/chats', { agentId: agents.Assistant!.id })).body.id as string;
    sendInBackground(a, delegating, '/delegate Researcher: weigh the otters [demo:stall]');
    const answering = `chat_rep_kill_${Date.now()}`;
    void postStream(`${a.url}${ws}/chat`, { id: answering, agentId: agents.Writer!.id, message: userMessage(`u_${Date.now()}`, 'lakes [demo:stall]') });
    const sub = await waitFor('the sub-agent is working on A', async () => {
      const subs = (await api(b).get(`/chats/${delegating}/sub-chats`))?.data ?? [];
      const chat = subs[0] && (await api(b).get(`/chats/${subs[0].id}`));
      return partsText(chat?.messages[1]?.parts, '') ? subs[0] : undefined;
    });
    await waitFor('the answer on A is stored in part', async () =>
      partsText((await api(b).get(`/chats/${answering}`))?.messages[1]?.parts, '') ? true : undefined,
    );
    await a.kill();

    await waitFor(
      'B repairs the runs A left',
      async () => {
        const [parent, cut] = await Promise.all([api(b).get(`/chats/${delegating}`), api(b).get(`/chats/${answering}`)]);
        return parent.activeRun === null && cut.activeRun === null ? true : undefined;
      },
      60_000,
    );
    const subChat = await api(b).get(`/chats/${sub.id}`);
    expect(subChat).toMatchObject({ status: 'error', delegateResult: INTERRUPTED_SUB_AGENT_RESULT });
    const parent = await api(b).get(`/chats/${delegating}`);
    const call = (parent.messages.at(-1) as Stored).parts.find((p) => p.type === 'tool-newTask')!;
    expect(call).toMatchObject({ state: 'output-available', output: { status: 'error', subChatId: sub.id } });
    expect(call.preliminary).toBeUndefined();
    const cut = await api(b).get(`/chats/${answering}`);
    expect(storedRunError(cut.messages[1])?.code).toBe('interrupted');
    expect(partsText(cut.messages[1]?.parts, '').length).toBeGreaterThan(0);
    // Usable through B.
    expect((await api(b).post(`/chats/${delegating}/messages`, { text: 'and now?' })).status).toBe(200);
    expect((await postStream(`${b.url}${ws}/chat`, { id: answering, message: userMessage(`u2_${Date.now()}`, 'again') })).status).toBe(200);
  }, 120_000);
});
