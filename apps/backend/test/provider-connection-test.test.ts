import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { testProviderConnection } from '../src/agent/provider-connection-test';
import { invitedAccount } from './support/accounts';
import { jsonError, type ProviderStub, startProviderStub } from './support/provider-stub';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const SECRET = 'sk-live-do-not-leak-123456';

const testConnection = (body: unknown, headers?: HeadersInit) => t.request(`${ws}/providers/test`, { json: body, headers });

// A provider that lists models for the right key and, like some real ones, echoes a wrong key in its 401.
let keyed: ProviderStub;
let closedPortUrl: string;
beforeAll(async () => {
  keyed = await startProviderStub(({ apiKey }) =>
    apiKey === SECRET
      ? Response.json({ object: 'list', data: [{ id: 'gpt-a', object: 'model' }, { id: 'gpt-b' }, { id: 'gpt-a' }] })
      : jsonError(401, `Incorrect API key provided: ${apiKey}`),
  );
  // A port that was just open and is now closed: nothing listens there.
  closedPortUrl = await new Promise<string>((resolve) => {
    const server = serve({ fetch: () => new Response(), port: 0, hostname: '127.0.0.1' }, (info) =>
      server.close(() => resolve(`http://127.0.0.1:${info.port}/v1`)),
    );
  });
});
afterAll(() => keyed?.close());

describe('POST /providers/test', () => {
  it('lists the models of a real OpenAI-compatible server (the demo model)', async () => {
    const res = await testConnection({ baseUrl: t.demo.baseURL });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ok: true, modelIds: ['baton-demo'], contextWindows: {} });
  });

  it('sends the typed key and returns distinct ids in the provider’s order', async () => {
    const res = await testConnection({ baseUrl: `${keyed.baseURL}/`, apiKey: SECRET });
    expect(await json(res)).toEqual({ ok: true, modelIds: ['gpt-a', 'gpt-b'], contextWindows: {} });
    expect(keyed.authorizations.at(-1)).toBe(`Bearer ${SECRET}`);
  });

  it('reports a rejected key as unauthorized, with the key cut out of the provider’s words', async () => {
    const wrong = 'sk-wrong-key-0987654321';
    const res = await testConnection({ baseUrl: keyed.baseURL, apiKey: wrong });
    const body = await json(res);
    expect(body).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(body.error.message).toMatch(/rejected the API key \(HTTP 401\): Incorrect API key provided: \[redacted\]/);
    expect(JSON.stringify(body)).not.toContain(wrong);
  });

  it('uses the stored key of providerId when none is typed, and never returns it', async () => {
    const provider = await json(await t.request(`${ws}/providers`, { json: { name: 'Keyed', baseUrl: keyed.baseURL, apiKey: SECRET } }));
    const res = await testConnection({ baseUrl: keyed.baseURL, providerId: provider.id });
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ ok: true, modelIds: ['gpt-a', 'gpt-b'], contextWindows: {} });
    expect(text).not.toContain(SECRET);
    expect(keyed.authorizations.at(-1)).toBe(`Bearer ${SECRET}`);
    // A key typed in the form wins over the stored one (the admin is about to change it).
    const typed = await json(await testConnection({ baseUrl: keyed.baseURL, providerId: provider.id, apiKey: 'sk-typed-instead-1234' }));
    expect(typed).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(keyed.authorizations.at(-1)).toBe('Bearer sk-typed-instead-1234');
  });

  it('answers 404 for a providerId of no provider in this workspace, another workspace’s included', async () => {
    expect((await testConnection({ baseUrl: keyed.baseURL, providerId: 'prov_missing' })).status).toBe(404);
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    const theirs = await json(await t.request(`/api/workspaces/${other.id}/providers`, { json: { name: 'Theirs', baseUrl: keyed.baseURL, apiKey: SECRET } }));
    const before = keyed.authorizations.length;
    expect((await testConnection({ baseUrl: keyed.baseURL, providerId: theirs.id })).status).toBe(404);
    expect(keyed.authorizations.length).toBe(before);
  });

  it('reports a port nobody listens on as unreachable', async () => {
    const body = await json(await testConnection({ baseUrl: closedPortUrl }));
    expect(body).toEqual({ ok: false, error: { kind: 'unreachable', message: expect.stringMatching(/could not reach the provider/) } });
  });

  it("reports a port web clients never use (the Fetch standard's blocked ports) as refused, naming the port", async () => {
    const body = await json(await testConnection({ baseUrl: 'http://127.0.0.1:6000/v1' }));
    expect(body).toEqual({
      ok: false,
      error: { kind: 'refused_address', message: expect.stringMatching(/^Port 6000 is one that web clients never connect to/) },
    });
  });

  it('reports something that is not a model list as a bad response', async () => {
    const html = await startProviderStub(() => new Response('<html>hello</html>', { headers: { 'content-type': 'text/html' } }));
    try {
      const body = await json(await testConnection({ baseUrl: html.baseURL }));
      expect(body).toMatchObject({ ok: false, error: { kind: 'bad_response', message: expect.stringMatching(/not with an OpenAI-compatible model list/) } });
    } finally {
      await html.close();
    }
  });

  it('refuses a bad body with 400 and a member (not an admin) with 403', async () => {
    expect((await testConnection({ baseUrl: 'ftp://example.com' })).status).toBe(400);
    expect((await testConnection({ baseUrl: t.demo.baseURL, extra: 1 })).status).toBe(400);
    expect((await testConnection({})).status).toBe(400);
    const member = await invitedAccount(t.anonymous, t.owner, 'member-testconn@baton.test');
    const before = keyed.authorizations.length;
    const res = await testConnection({ baseUrl: keyed.baseURL, apiKey: SECRET }, { cookie: member.cookie });
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('forbidden');
    expect(keyed.authorizations.length).toBe(before);
  });
});

describe('POST /providers/test without BATON_ALLOW_PRIVATE_URLS', () => {
  const strict = useTestApp();
  it('refuses a loopback provider before connecting, and says how to allow it', async () => {
    const before = keyed.authorizations.length;
    const res = await strict.request(`${ws}/providers/test`, { json: { baseUrl: keyed.baseURL, apiKey: SECRET } });
    const body = await json(res);
    expect(body).toMatchObject({ ok: false, error: { kind: 'refused_address', message: expect.stringMatching(/BATON_ALLOW_PRIVATE_URLS=true/) } });
    expect(keyed.authorizations.length).toBe(before);
  });
});

describe('testProviderConnection (the service, with a short time limit)', () => {
  const direct = useTestApp();
  it('reports a provider that never answers as a timeout, and one that redirects as a bad response', async () => {
    const { providerFetch } = createOutbound({ allowPrivateAddresses: true });
    const deps = { db: direct.handle.db, secrets: direct.secrets, providerFetch, timeoutMs: 300 };
    const stalling = await startProviderStub(() => new Response(new ReadableStream({ start() {} })));
    const redirecting = await startProviderStub(() => new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } }));
    try {
      expect(await testProviderConnection(deps, 'default', { baseUrl: stalling.baseURL })).toEqual({
        ok: false,
        error: { kind: 'timeout', message: expect.stringMatching(/did not answer within 0.3 s/) },
      });
      expect(await testProviderConnection(deps, 'default', { baseUrl: redirecting.baseURL })).toEqual({
        ok: false,
        error: { kind: 'bad_response', message: expect.stringMatching(/redirect \(HTTP 302\)/) },
      });
    } finally {
      await Promise.all([stalling.close(), redirecting.close()]);
    }
  });
});
