import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, workspaceApi, type BackendProcess } from './support/backend-process';
import { jsonError, startProviderStub, type ProviderStub } from './support/provider-stub';

// The real server process: where its secret key comes from, what it says about it, and
// where it listens by default.
const KEY = 'sk-survives-restarts-31337';
let dataDir: string;
let stub: ProviderStub;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'baton-secrets-'));
  stub = await startProviderStub(() => jsonError(401, 'no thanks'));
});
afterAll(async () => {
  await stub?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const baseEnv = () => ({
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  BATON_SECRET_KEY: undefined,
  HOST: undefined,
  BATON_DATA_DIR: dataDir,
  PORT: '0',
  BATON_ALLOW_PRIVATE_URLS: 'true',
});

/** One REST turn through the agent named `Keyed`: the error text, and the key the provider received. */
async function turn(backend: BackendProcess) {
  const api = workspaceApi(backend);
  const agent = (await api.get('/agents?limit=100')).data.find((a: { name: string }) => a.name === 'Keyed');
  const chat = await api.post('/chats', { agentId: agent.id });
  const before = stub.authorizations.length;
  const res = await api.post(`/chats/${chat.body.id}/messages`, { text: 'hi' });
  return { error: res.body.error?.message as string, sentKey: stub.authorizations.slice(before).at(-1)?.replace('Bearer ', '') };
}

describe('the secret key of a backend process', () => {
  it('is generated once into the data directory (0600), announced, and read again after a restart', async () => {
    const first = await startBackend(baseEnv());
    try {
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.output()).toContain(`secrets: generated a new secret key in ${join(dataDir, 'secret.key')}. Back it up`);
      expect((await stat(join(dataDir, 'secret.key'))).mode & 0o777).toBe(0o600);
      const api = workspaceApi(first);
      const provider = await api.post('/providers', { name: 'Stub', baseUrl: stub.baseURL, apiKey: KEY, modelIds: ['m'] });
      expect(provider.status).toBe(201);
      await api.post('/agents', { name: 'Keyed', providerId: provider.body.id, modelId: 'm' });
      expect(await turn(first)).toEqual({ error: expect.stringMatching(/HTTP 401/), sentKey: KEY });
    } finally {
      await first.stop();
    }
    expect(first.output()).not.toContain(KEY);

    const second = await startBackend(baseEnv());
    try {
      expect(second.output()).toContain(`secrets: using the secret key in ${join(dataDir, 'secret.key')}`);
      expect(second.output()).not.toMatch(/cannot be decrypted/);
      expect(await turn(second)).toEqual({ error: expect.stringMatching(/HTTP 401/), sentKey: KEY });
    } finally {
      await second.stop();
    }
  }, 150_000);

  it('BATON_SECRET_KEY replaces the file: keys stored with another key are reported at start-up and in the turn', async () => {
    const other = await startBackend({ ...baseEnv(), BATON_SECRET_KEY: randomBytes(32).toString('base64'), HOST: '::1' });
    try {
      expect(other.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect(other.output()).toContain('secrets: using BATON_SECRET_KEY');
      expect(other.output()).toContain('secrets: 1 stored provider API key(s) cannot be decrypted with this secret key');
      const { error, sentKey } = await turn(other);
      expect(error).toMatch(/cannot be decrypted with this server’s secret key/);
      expect(sentKey).toBeUndefined();
    } finally {
      await other.stop();
    }
  }, 120_000);

  it('a malformed BATON_SECRET_KEY stops the start with what to fix, without repeating the value', async () => {
    const value = 'my-password-is-not-a-key';
    const failure = await startBackend({ ...baseEnv(), BATON_SECRET_KEY: value }).then(
      async (b) => {
        await b.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/backend exited with 1/);
    expect(failure).toContain('Baton backend cannot start: BATON_SECRET_KEY must hold 32 random bytes as 64 hex characters or as base64');
    expect(failure).not.toContain(value);
  }, 120_000);
});
