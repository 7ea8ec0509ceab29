import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderStub, startProviderStub } from './support/provider-stub';
import { json, useTestApp } from './support/test-app';

// A stored secret (a provider's key, an MCP server's headers) goes only to the origin it was
// entered for: an admin cannot point it at another host without typing it again.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const KEY = 'sk-entered-for-the-real-provider-4711';
const TOKEN = 'mcp-header-for-the-real-server-0815';

let real: ProviderStub;
let attacker: ProviderStub;
let mcp: TestMcpServer;
beforeAll(async () => {
  real = await startProviderStub(() => Response.json({ object: 'list', data: [{ id: 'm' }] }));
  // The hostile host: answers like a provider, and records every Authorization header that arrives.
  attacker = await startProviderStub(() => Response.json({ object: 'list', data: [{ id: 'm' }] }));
  mcp = await startTestMcpServer({ token: TOKEN });
});
afterAll(async () => {
  await real?.close();
  await attacker?.close();
  await mcp?.close();
});

const patch = (path: string, body: unknown) => t.request(`${ws}${path}`, { method: 'PATCH', json: body });
/** Every credential the attacker was sent (requests without one are recorded as undefined). */
const stolen = () => attacker.authorizations.filter((a) => a !== undefined);

async function storedProvider() {
  return json(await t.request(`${ws}/providers`, { json: { name: `Real ${Math.random()}`, baseUrl: real.baseURL, apiKey: KEY, modelIds: ['m'] } }));
}

describe('a provider’s stored key', () => {
  it('is not sent by Test connection to another host (400 secret_required)', async () => {
    const provider = await storedProvider();
    const res = await t.request(`${ws}/providers/test`, { json: { baseUrl: attacker.baseURL, providerId: provider.id } });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: 'secret_required', message: expect.stringMatching(/enter the API key again/i) });
    expect(stolen()).toEqual([]);
    // Its own host, another path: the stored key is used as before.
    const ok = await json(await t.request(`${ws}/providers/test`, { json: { baseUrl: `${real.baseURL}/`, providerId: provider.id } }));
    expect(ok).toMatchObject({ ok: true });
    expect(real.authorizations.at(-1)).toBe(`Bearer ${KEY}`);
  });

  it('does not follow a new base URL on another host unless a key is given or removed', async () => {
    const provider = await storedProvider();
    const before = await t.snapshot();
    const res = await patch(`/providers/${provider.id}`, { baseUrl: attacker.baseURL, name: 'Moved' });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({
      code: 'secret_required',
      details: [{ path: ['apiKey'], message: expect.stringMatching(/enter the API key again|remove/i) }],
    });
    expect(await t.snapshot()).toBe(before);
    // Another port of the same host is another origin too.
    const port = new URL(real.baseURL);
    port.port = String(Number(port.port) + 1);
    expect((await patch(`/providers/${provider.id}`, { baseUrl: port.toString() })).status).toBe(400);

    // A member's chat on an agent using the provider still talks to the host the key was entered for.
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: `On ${provider.id}`, providerId: provider.id, modelId: 'm' } }));
    const chat = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'hello' } });
    expect(stolen()).toEqual([]);

    // The same origin, another path: the key stays.
    const samePlace = await json(await patch(`/providers/${provider.id}`, { baseUrl: `${real.baseURL}/` }));
    expect(samePlace.hasApiKey).toBe(true);
    // Moved with the key removed: nothing to send.
    const cleared = await json(await patch(`/providers/${provider.id}`, { baseUrl: attacker.baseURL, apiKey: null }));
    expect(cleared).toMatchObject({ baseUrl: attacker.baseURL, hasApiKey: false });
    await t.request(`${ws}/providers/test`, { json: { baseUrl: attacker.baseURL, providerId: provider.id } });
    expect(stolen()).toEqual([]);
    // Moved with a key typed for the new host: that key (only) goes there.
    const rekeyed = await patch(`/providers/${provider.id}`, { baseUrl: real.baseURL, apiKey: 'sk-typed-again' });
    expect(await json(rekeyed)).toMatchObject({ baseUrl: real.baseURL, hasApiKey: true });
  });
});

describe('an MCP server’s stored headers', () => {
  it('do not follow a new URL on another host unless headers are given (or removed)', async () => {
    const server = await json(await t.request(`${ws}/mcp-servers`, { json: { name: 'Facts', url: mcp.url, headers: { Authorization: `Bearer ${TOKEN}` } } }));
    expect(server.toolsError).toBeNull();
    const before = await t.snapshot();
    const requestsBefore = attacker.authorizations.length;
    const res = await patch(`/mcp-servers/${server.id}`, { url: `${attacker.baseURL}/mcp` });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({
      code: 'secret_required',
      details: [{ path: ['headers'], message: expect.stringMatching(/enter the headers again|remove/i) }],
    });
    expect(await t.snapshot()).toBe(before);
    expect(attacker.authorizations.length).toBe(requestsBefore);
    // Moved with its headers removed: the listing goes there without them.
    const moved = await json(await patch(`/mcp-servers/${server.id}`, { url: `${attacker.baseURL}/mcp`, headers: {} }));
    expect(moved).toMatchObject({ url: `${attacker.baseURL}/mcp`, headerNames: [] });
    expect(attacker.authorizations.length).toBeGreaterThan(requestsBefore);
    expect(stolen()).toEqual([]);
  });
});
