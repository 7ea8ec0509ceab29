import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type BackendProcess } from './support/backend-process';
import { freePort, startRedis } from './support/redis-server';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';
import { json, useTestApp } from './support/test-app';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait';

// Liveness (/api/health) says the process runs; readiness (/api/health/ready) says whether it
// can serve: its database answers, and Redis when one is configured. A dependency that goes
// away turns it to 503 naming what is down, and back to 200 once it returns, with no restart.
const onPostgres = Boolean(process.env.DATABASE_URL);

describe('GET /api/health/ready, in process', () => {
  const t = useTestApp();

  it('is ready with its database, and checks no Redis when none is configured', async () => {
    const res = await t.request('/api/health/ready');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'ready', checks: { database: { status: 'ok' } } });
  });
});

describe.skipIf(!onPostgres)('GET /api/health/ready while Postgres and Redis come and go', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let redis: ChildProcess;
  let backend: BackendProcess;
  const ready = async () => {
    const res = await fetch(`${backend.url}/api/health/ready`);
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    backend = await startBackend({ DATABASE_URL: target.toString(), REDIS_URL: `redis://127.0.0.1:${redisPort}`, PORT: '0' });
  }, 90_000);

  afterAll(async () => {
    await backend?.kill();
    if (redis && redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
    await proxy?.close();
    await database?.close();
  });

  it('is ready while both answer', async () => {
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready', checks: { database: { status: 'ok' }, redis: { status: 'ok' } } } });
  });

  it('answers 503 naming the database while it is unreachable, stays alive, and is ready again once it returns', async () => {
    await proxy.cut();
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', checks: { database: { status: 'down', error: expect.any(String) }, redis: { status: 'ok' } } });
    // What a public endpoint says names no host or port.
    expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|5432|ECONNREFUSED/);
    expect((await fetch(`${backend.url}/api/health`)).status).toBe(200);

    await proxy.restore();
    await waitFor('ready again', async () => ((await ready()).status === 200 ? true : undefined), 20_000);
    expect((await ready()).body.checks.database).toEqual({ status: 'ok' });
  }, 60_000);

  it('answers 503 naming Redis once it stops', async () => {
    redis.kill('SIGKILL');
    await once(redis, 'exit');
    const down = await waitFor('Redis reported down', async () => {
      const r = await ready();
      return r.status === 503 ? r : undefined;
    });
    expect(down.body.checks).toEqual({ database: { status: 'ok' }, redis: { status: 'down', error: expect.any(String) } });
  }, 30_000);
});
