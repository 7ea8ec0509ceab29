import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKey } from './support/accounts';
import { type BackendProcess, ownerSession, startBackend } from './support/backend-process';
import { createTestDatabase } from './support/test-db';

// The Docker image runs `node dist/index.js`, the bundle of scripts/build.mjs, with production
// dependencies only: this builds it and runs it as the image does (plain node, no tsx), so what
// the sources find next to themselves — the migrations, the PDF worker, Swagger UI's files,
// the workspace packages bundled in — is found by the bundle too. The build itself refuses an
// import of a package the production install lacks (scripts/build.mjs).
// On Postgres only (the image's database in docker-compose.yml): a fresh PGlite directory
// takes the better part of a minute to migrate on a loaded CI machine. The bundle on PGlite,
// as a non-root user, is checked by hand (docs/operations.md, "Checking the image's recipe without Docker").
const backendDir = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(!process.env.DATABASE_URL)('the production build (dist/index.js)', () => {
  let backend: BackendProcess;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs'], { cwd: backendDir });
    // The secret key file would go here (the tests set BATON_SECRET_KEY, so nothing does).
    dataDir = await mkdtemp(join(tmpdir(), 'baton-built-'));
    database = await createTestDatabase();
    backend = await startBackend({ DATABASE_URL: database.url, BATON_DATA_DIR: dataDir, PORT: '0', DEMO_LLM_DELAY_MS: '1' }, { built: true });
  }, 90_000);

  afterAll(async () => {
    await backend?.stop();
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs under plain node: ready on its database, with the files it reads at run time', async () => {
    expect(backend.process.spawnargs.slice(1)).toEqual(['dist/index.js']);
    const ready = await fetch(`${backend.url}/api/health/ready`);
    expect(ready.status).toBe(200);
    // Redis too when the suite has one (REDIS_URL, as in CI): ioredis is loaded from node_modules.
    const checks = process.env.REDIS_URL ? { database: { status: 'ok' }, redis: { status: 'ok' } } : { database: { status: 'ok' } };
    expect(await ready.json()).toEqual({ status: 'ready', checks });
    const health = await (await fetch(`${backend.url}/api/health`)).json();
    expect(health.database).toBe('postgres');
    const css = await fetch(`${backend.url}/api/docs/assets/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect((await css.text()).length).toBeGreaterThan(1000);
    // Started by file name next to the bundle (services/pdf-text.ts).
    expect(existsSync(join(backendDir, 'dist/pdf-text-worker.mjs'))).toBe(true);
  });

  it('answers a delegated chat with the demo model', async () => {
    const owner = await ownerSession(backend);
    const fetcher = (path: string, init?: RequestInit) => fetch(`${backend.url}${path}`, init);
    const { key } = await createApiKey(fetcher, owner);
    const models = await (await fetch(`${backend.url}/v1/models`, { headers: bearer(key) })).json();
    const assistant = models.data.find((m: { owned_by: string }) => m.owned_by === 'Assistant');
    const res = await fetch(`${backend.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify({ model: assistant.id, messages: [{ role: 'user', content: '/delegate Researcher: facts about otters' }] }),
    });
    expect(res.status).toBe(200);
    const completion = await res.json();
    expect(completion.choices[0].finish_reason).toBe('stop');
    // The demo model's parent answer names the sub-agent's result it continued with.
    expect(completion.choices[0].message.content).toMatch(/Researcher/);
  });
});
