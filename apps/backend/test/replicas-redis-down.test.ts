import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, workspaceApi, type BackendProcess } from './support/backend-process';
import { withCredentials } from './support/credentials';
import { getStream, postStream, textOf, userMessage } from './support/chat-client';
import { freePort, startRedis } from './support/redis-server';
import { waitFor } from './support/wait';
import { createTestDatabase } from './support/test-db';
import { partsText } from './support/messages';

// Two replicas on one Postgres and a Redis of their own, which this test stops mid-answer
// (the machine's shared Redis is never touched). Following an answer that runs on the other
// replica needs Redis: without it the follower must hear why, not lose the connection.
const ws = '/api/workspaces/default';
const onPostgres = Boolean(process.env.DATABASE_URL);
const api = workspaceApi;

describe.skipIf(!onPostgres)('two replicas when Redis goes down', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let redis: ChildProcess;
  let a: BackendProcess;
  let b: BackendProcess;
  let writerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    redis = await startRedis(port);
    const env = { DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${port}`, PORT: '0', DEMO_LLM_DELAY_MS: '15' };
    [a, b] = await Promise.all([startBackend(env), startBackend(env)]);
    writerId = (await api(a).get('/agents')).data.find((x: { name: string }) => x.name === 'Writer').id;
    await api(b).get('/agents');
  }, 90_000);

  afterAll(async () => {
    await a?.kill();
    await b?.kill();
    if (redis && redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
    await database?.close();
  });

  it('a follower through B gets an error event and a clean end; a resume through B then gets a JSON 503, not a dropped connection', async () => {
    const chatId = `chat_redis_down_${Date.now()}`;
    const onA = postStream(`${a.url}${ws}/chat`, { id: chatId, agentId: writerId, message: userMessage(`u_${Date.now()}`, 'rivers '.repeat(600)) });
    await waitFor('A is answering', async () => ((await api(b).get(`/chats/${chatId}`))?.activeRun ? true : undefined));
    const following = getStream(`${b.url}${ws}/chats/${chatId}/stream`);
    await waitFor('the answer is under way', async () => (partsText((await api(b).get(`/chats/${chatId}`))?.messages[1]?.parts, '') ? true : undefined));

    redis.kill('SIGKILL');
    await once(redis, 'exit');

    const followed = await following;
    expect(followed.status).toBe(200);
    expect(followed.error).toBeUndefined();
    expect(followed.chunks.some((c) => c.type === 'text-delta')).toBe(true);
    const error = followed.chunks.at(-1);
    expect(error).toMatchObject({ type: 'error', errorText: expect.stringContaining('Redis') });

    const res = await fetch(`${b.url}${ws}/chats/${chatId}/stream`, { headers: withCredentials() }).catch((err: unknown) => err);
    expect(res).toBeInstanceOf(Response);
    const resumed = res as Response;
    expect(resumed.status).toBe(503);
    expect(resumed.headers.get('content-type')).toContain('application/json');
    expect(resumed.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = await resumed.json();
    expect(body.error.code).toBe('unavailable');
    expect(body.error.message).toMatch(/Redis/);

    // A still finishes and stores the answer (its own clients never needed Redis).
    const first = await onA;
    expect(first.status).toBe(200);
    const stored = await waitFor(
      'the answer is stored',
      async () => {
        const chat = await api(b).get(`/chats/${chatId}`);
        return chat?.activeRun === null ? chat : undefined;
      },
      60_000,
    );
    expect(partsText(stored.messages[1]?.parts, '')).toBe(textOf(first.chunks));
  }, 120_000);
});
