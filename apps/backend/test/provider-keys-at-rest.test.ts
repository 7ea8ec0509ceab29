import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provider } from '../src/db/schema';
import { Secrets } from '../src/secrets/secrets';
import { encryptStoredProviderKeys } from '../src/services/providers';
import { jsonError, startProviderStub, type ProviderStub } from './support/provider-stub';
import { json, useTestApp } from './support/test-app';

// Provider keys are encrypted in the database, and the model call still sends the real key.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const KEY = 'sk-at-rest-0123456789abcdef';

let stub: ProviderStub;
beforeAll(async () => {
  stub = await startProviderStub(() => jsonError(401, 'no thanks'));
});
afterAll(() => stub?.close());

const rawKey = async (id: string) => (await t.handle.db.select({ apiKey: provider.apiKey }).from(provider).where(eq(provider.id, id)))[0]?.apiKey;

/** Runs one REST turn through an agent on the provider and returns the key the provider received. */
async function keySentBy(providerId: string): Promise<string | undefined> {
  const agent = await json(await t.request(`${ws}/agents`, { json: { name: `Agent ${Date.now()}${Math.random()}`, providerId, modelId: 'm' } }));
  const chat = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
  const before = stub.authorizations.length;
  const body = await json(await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'hi' } }));
  expect(body.error?.message).toMatch(/rejected the API key \(HTTP 401\): no thanks/);
  expect(stub.authorizations.length).toBe(before + 1);
  return stub.authorizations.at(-1)?.replace(/^Bearer /, '');
}

describe('provider API keys at rest', () => {
  it('are stored encrypted (AES-256-GCM, v1 format), and the provider still receives the real key', async () => {
    const created = await json(await t.request(`${ws}/providers`, { json: { name: 'Enc', baseUrl: stub.baseURL, apiKey: KEY, modelIds: ['m'] } }));
    const stored = await rawKey(created.id);
    expect(stored).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(stored).not.toContain(KEY);
    expect(t.secrets.decrypt(stored!, `provider.api_key:${created.id}`)).toBe(KEY);
    // Nothing in the database holds the key in the clear.
    expect(await t.snapshot()).not.toContain(KEY);
    expect(await keySentBy(created.id)).toBe(KEY);

    // A new key replaces it, encrypted again; other edits keep it; null removes it.
    const NEW_KEY = 'sk-replaced-9876543210';
    await t.request(`${ws}/providers/${created.id}`, { method: 'PATCH', json: { apiKey: NEW_KEY } });
    const replaced = await rawKey(created.id);
    expect(replaced).not.toBe(stored);
    expect(replaced).not.toContain(NEW_KEY);
    expect(await keySentBy(created.id)).toBe(NEW_KEY);
    await t.request(`${ws}/providers/${created.id}`, { method: 'PATCH', json: { name: 'Renamed' } });
    expect(await rawKey(created.id)).toBe(replaced);
    await t.request(`${ws}/providers/${created.id}`, { method: 'PATCH', json: { apiKey: null } });
    expect(await rawKey(created.id)).toBeNull();
  });

  it('a ciphertext copied into another provider row does not decrypt there', async () => {
    const a = await json(await t.request(`${ws}/providers`, { json: { name: 'A', baseUrl: stub.baseURL, apiKey: KEY, modelIds: ['m'] } }));
    const b = await json(await t.request(`${ws}/providers`, { json: { name: 'B', baseUrl: stub.baseURL, apiKey: 'sk-other-provider-key', modelIds: ['m'] } }));
    await t.handle.db
      .update(provider)
      .set({ apiKey: await rawKey(a.id) })
      .where(eq(provider.id, b.id));
    const before = stub.authorizations.length;
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Copy', providerId: b.id, modelId: 'm' } }));
    const chat = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    const body = await json(await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'hi' } }));
    expect(body.error.message).toMatch(/cannot be decrypted with this server’s secret key/);
    expect(stub.authorizations.length).toBe(before);
  });

  it('keys stored in plain text before encryption keep working, and start-up encrypts them once', async () => {
    const created = await json(await t.request(`${ws}/providers`, { json: { name: 'Legacy', baseUrl: stub.baseURL, modelIds: ['m'] } }));
    const LEGACY = 'sk-legacy-plaintext-key-42';
    await t.handle.db.update(provider).set({ apiKey: LEGACY }).where(eq(provider.id, created.id));
    // Read as it is until start-up encrypts it (an older replica may still write plain keys).
    expect(await keySentBy(created.id)).toBe(LEGACY);

    // (The key copied into provider B by the test before cannot be read: counted, left alone.)
    const first = await encryptStoredProviderKeys(t.handle.db, t.secrets);
    expect(first).toEqual({ encrypted: 1, unreadable: 1 });
    const encrypted = await rawKey(created.id);
    expect(encrypted).toMatch(/^v1:/);
    expect(await t.snapshot()).not.toContain(LEGACY);
    expect(await keySentBy(created.id)).toBe(LEGACY);

    // Idempotent: a second start changes nothing, byte for byte.
    const before = await t.snapshot();
    expect(await encryptStoredProviderKeys(t.handle.db, t.secrets)).toEqual({ encrypted: 0, unreadable: 1 });
    expect(await t.snapshot()).toBe(before);
  });

  it('start-up counts keys another secret key encrypted (BATON_SECRET_KEY changed or secret.key lost)', async () => {
    const before = await encryptStoredProviderKeys(t.handle.db, t.secrets);
    const readable = (await t.handle.db.select().from(provider)).filter((row) => row.apiKey).length;
    expect(readable).toBeGreaterThan(0);
    // Every key stored so far is readable with this app's key except the one copied into B (earlier test).
    expect(before.unreadable).toBe(1);
    expect(await encryptStoredProviderKeys(t.handle.db, Secrets.random())).toEqual({ encrypted: 0, unreadable: readable });
  });
});
