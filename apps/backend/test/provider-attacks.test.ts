import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_UNREACHABLE } from '../src/agent/model-errors';
import { createApp } from '../src/app';
import { provider } from '../src/db/schema';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { jsonError, startProviderStub, type ProviderStub } from './support/provider-stub';
import { withCredentials } from './support/credentials';
import { json, TEST_AUTH, useTestApp } from './support/test-app';

// The attacks from the product owner's report, each through the real API: a provider's base
// URL pointing inside the network, steering the path, probing ports, keys echoed back.
const t = useTestApp(); // BATON_ALLOW_PRIVATE_URLS unset, as by default
const ws = '/api/workspaces/default';
const PAGE_SECRET = 'TOP-SECRET internal admin page';

/** The same database behind an app whose operator set BATON_ALLOW_PRIVATE_URLS=true. */
let open: ReturnType<typeof createApp>;
let internal: ProviderStub;
let echo: ProviderStub;
const tcpServers: TcpServer[] = [];

beforeAll(async () => {
  open = createApp({
    db: t.handle.db,
    databaseKind: t.handle.kind,
    secrets: t.secrets,
    outbound: createOutbound({ allowPrivateAddresses: true }),
    auth: TEST_AUTH,
  });
  // An internal service that is not a model provider: HTML pages, whatever the path.
  internal = await startProviderStub(
    () => new Response(`<html><body><h1>403</h1><p>${PAGE_SECRET}</p></body></html>`, { status: 403, headers: { 'content-type': 'text/html' } }),
  );
  // A provider that rejects the key and, like some real ones, repeats it in its error.
  echo = await startProviderStub(({ apiKey }) => jsonError(401, `Incorrect API key provided: ${apiKey}. You can find your key at …`));
});
afterAll(async () => {
  await internal?.close();
  await echo?.close();
  for (const server of tcpServers) server.close();
});

// Both apps are asked as the owner (the same session works on both: one database, one auth secret).
type App = { request: (path: string, init?: RequestInit) => Response | Promise<Response> };
const post = (app: App, path: string, body: unknown, method = 'POST') =>
  Promise.resolve(app.request(path, { method, headers: withCredentials({ 'content-type': 'application/json' }), body: JSON.stringify(body) }));
const get = (app: App, path: string) => Promise.resolve(app.request(path, { headers: withCredentials() }));

let n = 0;
/** A provider with these settings, an agent on it, and one REST turn: what the person sees. */
async function turnThrough(app: App, settings: { baseUrl: string; apiKey?: string | null }) {
  const created = await post(app, `${ws}/providers`, { name: `P${n++}`, modelIds: ['m'], apiKey: null, ...settings });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id: providerId } = await json(created);
  const agent = await json(await post(app, `${ws}/agents`, { name: `A${n++}`, providerId, modelId: 'm' }));
  const chat = await json(await post(app, `${ws}/chats`, { agentId: agent.id }));
  const res = await post(app, `${ws}/chats/${chat.id}/messages`, { text: 'hi' });
  expect(res.status).toBe(200);
  const text = await res.text();
  const stored = await (await get(app, `${ws}/chats/${chat.id}`)).text();
  return { message: JSON.parse(text).error?.message as string | undefined, text: text + stored };
}

async function listeningTcp(onConnection: (socket: import('node:net').Socket) => void): Promise<number> {
  const server = createTcpServer(onConnection);
  tcpServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a base URL pointing at an internal address', () => {
  it('is refused before any request, whichever way the address is written', async () => {
    const port = new URL(internal.baseURL).port;
    for (const baseUrl of [
      internal.baseURL,
      `http://localhost:${port}/v1`,
      `http://[::1]:${port}/v1`,
      `http://[::ffff:7f00:1]:${port}/v1`,
      'http://169.254.169.254/latest',
      'http://0.0.0.0:80/v1',
    ]) {
      const { message, text } = await turnThrough(t, { baseUrl, apiKey: 'sk-would-be-sent-123' });
      expect(message, baseUrl).toMatch(/^Baton does not connect to/);
      expect(text).not.toContain(PAGE_SECRET);
    }
    expect(internal.authorizations).toEqual([]);
  });

  it('with private addresses allowed: the status is shown, never the page (raw bodies are not error texts)', async () => {
    const { message, text } = await turnThrough(open, { baseUrl: internal.baseURL, apiKey: 'sk-some-key-123456' });
    expect(message).toBe('The model provider rejected the API key (HTTP 403).');
    expect(text).not.toContain(PAGE_SECRET);
    expect(text).not.toContain('<html>');
    // Link-local and metadata stay refused even then.
    const metadata = await turnThrough(open, { baseUrl: 'http://169.254.169.254/latest' });
    expect(metadata.message).toMatch(/never allowed/);
  });
});

describe('"#" and "?" in a base URL (steering the request path)', () => {
  it('are refused with 400 on create and update, and nothing is written', async () => {
    const existing = await json(await post(t, `${ws}/providers`, { name: 'Fine', baseUrl: 'https://api.example.com/v1' }));
    for (const baseUrl of [`${internal.baseURL.replace('/v1', '')}/403#`, 'https://api.example.com/v1?x=1', 'https://api.example.com/v1#frag']) {
      const before = await t.snapshot();
      for (const [path, method] of [
        [`${ws}/providers`, 'POST'],
        [`${ws}/providers/${existing.id}`, 'PATCH'],
      ] as const) {
        const res = await post(t, path, { name: 'Steer', baseUrl }, method);
        expect(res.status, `${method} ${baseUrl}`).toBe(400);
        const body = await json(res);
        expect(body.error.code).toBe('invalid_request');
        expect(body.error.message).toMatch(/^invalid request body: baseUrl: must not contain/);
      }
      expect(await t.snapshot()).toBe(before);
    }
  });

  it('a row stored before the check is not used: the turn fails without a request', async () => {
    const { id } = await json(await post(open, `${ws}/providers`, { name: 'Old', baseUrl: internal.baseURL, modelIds: ['m'] }));
    await t.handle.db
      .update(provider)
      .set({ baseUrl: `${internal.baseURL.replace('/v1', '')}/403#` })
      .where(eq(provider.id, id));
    const agent = await json(await post(open, `${ws}/agents`, { name: 'On old', providerId: id, modelId: 'm' }));
    const chat = await json(await post(open, `${ws}/chats`, { agentId: agent.id }));
    const body = await json(await post(open, `${ws}/chats/${chat.id}/messages`, { text: 'hi' }));
    expect(body.error.message).toMatch(/base URL is no longer accepted/);
    expect(internal.authorizations).toHaveLength(1); // only the earlier test's request
  });
});

describe('port probing through error texts', () => {
  it('a closed port, an open non-HTTP port and a port that hangs up all read "could not reach the provider"', async () => {
    const ports = {
      closed: await closedPort(),
      banner: await listeningTcp((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')),
      hangUp: await listeningTcp((socket) => socket.destroy()),
    };
    // The AI SDK retries connection failures (about 6 s each): run the three together.
    const results = await Promise.all(Object.values(ports).map((port) => turnThrough(open, { baseUrl: `http://127.0.0.1:${port}/v1` })));
    for (const { message, text } of results) {
      expect(message).toBe(PROVIDER_UNREACHABLE);
      expect(text).not.toMatch(/ECONNREFUSED|ECONNRESET|SSH-2\.0|127\.0\.0\.1|other side closed/);
    }
    // Without the operator's switch, every loopback port reads the same refusal.
    const refused = await Promise.all(Object.values(ports).map((port) => turnThrough(t, { baseUrl: `http://127.0.0.1:${port}/v1` })));
    expect(new Set(refused.map((r) => r.message)).size).toBe(1);
  }, 60_000);
});

describe('API keys echoed by a provider', () => {
  it('are removed from error texts whatever their length (short ones take the provider text with them)', async () => {
    const shortKeys = ['Z', 'Zq', 'Zq9', 'Zq9%', 'Zq9%X', 'Zq9%X!', 'Zq9%X!w'];
    for (const apiKey of shortKeys) {
      const { message, text } = await turnThrough(open, { baseUrl: echo.baseURL, apiKey });
      expect(message, apiKey).toBe('The model provider rejected the API key (HTTP 401).');
      if (apiKey.length >= 4) expect(text, apiKey).not.toContain(apiKey);
    }
    const longKey = 'sk-proj-Zq9XwLongEnoughKey';
    const { message, text } = await turnThrough(open, { baseUrl: echo.baseURL, apiKey: longKey });
    expect(message).toBe('The model provider rejected the API key (HTTP 401): Incorrect API key provided: [redacted]. You can find your key at …');
    expect(text).not.toContain(longKey);
    expect(echo.authorizations.map((a) => a?.replace('Bearer ', ''))).toEqual([...shortKeys, longKey]);
  });

  it('the provider message is cut to 300 characters after the key is removed, so no part of it remains', async () => {
    const apiKey = 'sk-cut-here-0123456789abcdefghij';
    const padded = await startProviderStub(({ apiKey: key }) => jsonError(400, `${'x'.repeat(290)}${key}${'y'.repeat(50)}`));
    try {
      const { message, text } = await turnThrough(open, { baseUrl: padded.baseURL, apiKey });
      const detail = message!.replace('The model provider returned an error (HTTP 400): ', '');
      expect(detail).toHaveLength(301); // 300 and the ellipsis
      expect(detail.startsWith(`${'x'.repeat(290)}[redacted]`)).toBe(true);
      expect(text).not.toContain(apiKey.slice(0, 8));
    } finally {
      await padded.close();
    }
  });
});

describe('credentials in a base URL', () => {
  it('user:pass@ and ?api-key= are refused with 400, never stored, never echoed', async () => {
    const before = await t.snapshot();
    for (const baseUrl of [
      'https://admin:hunter2pw@api.example.com/v1',
      'https://sk-in-userinfo-77@api.example.com/v1',
      'https://api.example.com/v1?api-key=sk-in-query-77',
    ]) {
      const res = await post(t, `${ws}/providers`, { name: 'Creds', baseUrl });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).not.toMatch(/hunter2pw|sk-in-userinfo-77|sk-in-query-77/);
      expect(JSON.parse(text).error.message).toMatch(/baseUrl: must not contain/);
    }
    expect(await t.snapshot()).toBe(before);
    expect(await (await t.request(`${ws}/providers?limit=100`)).text()).not.toMatch(/hunter2pw|sk-in-/);
  });

  it('a row stored with them before the check is shown without them (and not used until edited)', async () => {
    const { id } = await json(await post(t, `${ws}/providers`, { name: 'Stored creds', baseUrl: 'https://api.example.com/v1' }));
    await t.handle.db.update(provider).set({ baseUrl: 'https://admin:hunter2pw@api.example.com/v1?api-key=sk-in-query-77#x' }).where(eq(provider.id, id));
    for (const path of [`${ws}/providers/${id}`, `${ws}/providers?limit=100`]) {
      const text = await (await t.request(path)).text();
      expect(text).not.toMatch(/hunter2pw|sk-in-query-77|admin/);
    }
    expect((await json(await t.request(`${ws}/providers/${id}`))).baseUrl).toBe('https://api.example.com/v1');
  });
});
