import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpServer } from '../src/db/schema';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { Secrets } from '../src/secrets/secrets';
import { refreshMcpServer } from '../src/services/mcp-servers';
import { invitedAccount } from './support/accounts';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const TOKEN = 'mcp-secret-token-do-not-leak-42';
const auth = { Authorization: `Bearer ${TOKEN}` };

let mcp: TestMcpServer;
let closedPortUrl: string;
const logged: string[] = [];
beforeAll(async () => {
  mcp = await startTestMcpServer({ token: TOKEN });
  closedPortUrl = await new Promise<string>((resolve) => {
    const server = serve({ fetch: () => new Response(), port: 0, hostname: '127.0.0.1' }, (info) =>
      server.close(() => resolve(`http://127.0.0.1:${info.port}/mcp`)),
    );
  });
  // Every console line of the file, to prove no header value is ever logged.
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
});
afterAll(async () => {
  await mcp?.close();
  expect(logged.join('\n')).not.toContain(TOKEN);
});

const create = (body: unknown, headers?: HeadersInit) => t.request(`${ws}/mcp-servers`, { json: body, headers });

describe('MCP servers: CRUD and listing', () => {
  let id: string;
  let agentWithMcp: string;

  it('adds a server, lists its tools at once, and returns header names but never values', async () => {
    const res = await create({ name: 'Facts', url: mcp.url, headers: auth });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(TOKEN);
    const server = JSON.parse(text);
    id = server.id;
    expect(server).toMatchObject({ name: 'Facts', url: mcp.url, transport: 'auto', enabled: true, headerNames: ['Authorization'], toolsError: null });
    expect(server.tools.map((tool: { id: string }) => tool.id).sort()).toEqual([mcpToolId(id, 'add'), mcpToolId(id, 'lookup_fact')]);
    expect(server.tools.find((tool: { name: string }) => tool.name === 'lookup_fact')).toMatchObject({
      description: expect.stringContaining('fact'),
      inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
    });
    expect(server.toolsCheckedAt).toEqual(expect.any(String));
    // The listing connection was closed.
    expect(mcp.openSessions()).toBe(0);
    // Stored encrypted: the value is not in the row.
    const [row] = await t.handle.db.select().from(mcpServer).where(eq(mcpServer.id, id));
    expect(row!.headers).not.toContain(TOKEN);
    expect(JSON.stringify(row)).not.toContain(TOKEN);
  });

  it('reads it back (list, get) without header values, and shows the tools in the workspace catalog', async () => {
    const list = await t.request(`${ws}/mcp-servers`);
    const listText = await list.text();
    expect(listText).not.toContain(TOKEN);
    expect(JSON.parse(listText).data.map((s: { id: string }) => s.id)).toContain(id);
    const one = await t.request(`${ws}/mcp-servers/${id}`);
    expect(await one.text()).not.toContain(TOKEN);
    const tools = (await json(await t.request(`${ws}/tools`))).data;
    expect(tools.filter((tool: { source: string }) => tool.source === 'builtIn').map((tool: { id: string }) => tool.id)).toEqual(['calculator', 'currentTime']);
    expect(tools).toContainEqual({
      id: mcpToolId(id, 'lookup_fact'),
      name: 'lookup_fact',
      description: expect.any(String),
      source: 'mcp',
      serverId: id,
      serverName: 'Facts',
      available: true,
    });
  });

  it('speaks the older HTTP+SSE transport: when asked to, and as the fallback of auto', async () => {
    for (const transport of ['sse', 'auto'] as const) {
      const server = await json(await create({ name: `Facts over SSE (${transport})`, url: mcp.sseUrl, transport, headers: auth }));
      expect(server.toolsError).toBeNull();
      expect(server.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['add', 'lookup_fact']);
      await vi.waitFor(() => expect(mcp.openSessions()).toBe(0));
    }
    // HTTP only: an SSE endpoint is not Streamable HTTP.
    const httpOnly = await json(await create({ name: 'SSE as HTTP', url: mcp.sseUrl, transport: 'http', headers: auth }));
    expect(httpOnly.toolsError.kind).toBe('bad_protocol');
  });

  it('refuses a second server of the same name (any case) with 409', async () => {
    const res = await create({ name: 'FACTS', url: mcp.url });
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('conflict');
  });

  it('stores a wrong token as an unauthorized listing, not an error of the update, and marks the tools unavailable', async () => {
    const res = await t.request(`${ws}/mcp-servers/${id}`, { method: 'PATCH', json: { headers: { Authorization: 'Bearer wrong' } } });
    expect(res.status).toBe(200);
    const server = await json(res);
    expect(server.toolsError).toEqual({ kind: 'unauthorized', message: expect.stringContaining('HTTP 401') });
    // The last good listing stays, unavailable.
    expect(server.tools).toHaveLength(2);
    const tools = (await json(await t.request(`${ws}/tools`))).data;
    expect(tools.find((tool: { id: string }) => tool.id === mcpToolId(id, 'add')).available).toBe(false);
    // Back to the right token: the refresh succeeds again.
    const fixed = await json(await t.request(`${ws}/mcp-servers/${id}`, { method: 'PATCH', json: { headers: auth } }));
    expect(fixed.toolsError).toBeNull();
  });

  it('lets a member refresh and read, but only admins add, change or remove; another workspace’s server is 404', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'member-mcp@baton.test');
    const as = { cookie: member.cookie };
    expect((await create({ name: 'Mine', url: mcp.url }, as)).status).toBe(403);
    expect((await t.request(`${ws}/mcp-servers/${id}`, { method: 'PATCH', json: { enabled: false }, headers: as })).status).toBe(403);
    expect((await t.request(`${ws}/mcp-servers/${id}`, { method: 'DELETE', headers: as })).status).toBe(403);
    expect((await t.request(`${ws}/mcp-servers`, { headers: as })).status).toBe(200);
    const refreshed = await t.request(`${ws}/mcp-servers/${id}/refresh`, { method: 'POST', headers: as });
    expect(refreshed.status).toBe(200);
    expect((await json(refreshed)).toolsError).toBeNull();

    const other = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere MCP' } }));
    expect((await t.request(`/api/workspaces/${other.id}/mcp-servers/${id}`)).status).toBe(404);
    expect((await t.request(`/api/workspaces/${other.id}/mcp-servers/${id}/refresh`, { method: 'POST' })).status).toBe(404);
    expect((await t.request(`/api/workspaces/${other.id}/mcp-servers/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = await t.snapshot();
    for (const body of [
      { name: 'Bad', url: 'ftp://example.com/mcp' },
      { name: 'Bad', url: 'not a url' },
      { name: 'Bad', url: 'http://user:pass@example.com/mcp' },
      { name: 'Bad\u0000', url: mcp.url },
      { name: 'Bad', url: mcp.url, headers: { 'Bad Header': 'x' } },
      { name: 'Bad', url: mcp.url, headers: { Authorization: 'a\r\nInjected: 1' } },
      { name: 'Bad', url: mcp.url, headers: { Authorization: 'a\u0000b' } },
      { name: 'Bad', url: mcp.url, transport: 'websocket' },
      { name: 'Bad', url: mcp.url, extra: true },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    expect(await t.snapshot()).toBe(before);
  });

  it('stores each failure kind that can happen here', async () => {
    const unreachable = await json(await create({ name: 'Closed port', url: closedPortUrl, transport: 'http' }));
    expect(unreachable.toolsError).toEqual({ kind: 'unreachable', message: expect.stringContaining('could not connect') });
    const notMcp = await json(await create({ name: 'Not MCP', url: mcp.notMcpUrl }));
    expect(notMcp.toolsError).toEqual({ kind: 'bad_protocol', message: expect.stringContaining('not as an MCP server') });
    expect(notMcp.tools).toEqual([]);
    const sse = await json(await create({ name: 'Not MCP over SSE', url: mcp.notMcpUrl, transport: 'sse' }));
    expect(sse.toolsError.kind).toBe('bad_protocol');

    const deps = { db: t.handle.db, secrets: t.secrets };
    // The outbound guard without BATON_ALLOW_PRIVATE_URLS: loopback is refused before connecting.
    const refused = await refreshMcpServer({ ...deps, mcpFetch: createOutbound({ allowPrivateAddresses: false }).providerFetch }, 'default', unreachable.id);
    expect(refused.toolsError).toEqual({ kind: 'refused_address', message: expect.stringContaining('BATON_ALLOW_PRIVATE_URLS') });
    // A server that never answers, with a short deadline.
    const hanging = await json(await create({ name: 'Hangs', url: mcp.hangUrl, enabled: false }));
    expect(hanging.toolsCheckedAt).toBeNull();
    const timedOut = await refreshMcpServer(
      { ...deps, mcpFetch: createOutbound({ allowPrivateAddresses: true }).providerFetch, mcpTimeoutMs: 300 },
      'default',
      hanging.id,
    );
    expect(timedOut.toolsError).toEqual({ kind: 'timeout', message: expect.stringContaining('0.3 s') });
    // Headers another secret key encrypted (BATON_SECRET_KEY changed): a failure to show, not a 500.
    const keyed = await json(await create({ name: 'Re-keyed', url: mcp.url, headers: auth }));
    const otherKey = await refreshMcpServer(
      { ...deps, secrets: Secrets.random(), mcpFetch: createOutbound({ allowPrivateAddresses: true }).providerFetch },
      'default',
      keyed.id,
    );
    expect(otherKey.toolsError).toEqual({ kind: 'unauthorized', message: expect.stringContaining('Enter the headers again') });
    expect(otherKey.tools).toHaveLength(2);
  });

  it('lets agents select a tool of a server of this workspace only', async () => {
    const agentBody = (toolIds: string[]) => ({ name: `Tooled ${toolIds.length} ${Math.random()}`, systemPrompt: 'x', toolIds });
    const ok = await t.request(`${ws}/agents`, { json: agentBody(['calculator', mcpToolId(id, 'lookup_fact')]) });
    expect(ok.status).toBe(201);
    const agent = await json(ok);
    expect(agent.toolIds).toEqual(['calculator', mcpToolId(id, 'lookup_fact')]);
    // Another workspace's server is unknown here.
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Other MCP owner' } }));
    const theirs = await json(await t.request(`/api/workspaces/${other.id}/mcp-servers`, { json: { name: 'Theirs', url: mcp.url, enabled: false } }));
    const foreign = await t.request(`${ws}/agents`, { json: agentBody([mcpToolId(theirs.id, 'lookup_fact')]) });
    expect(foreign.status).toBe(400);
    expect((await json(foreign)).error.message).toContain('unknown tool');
    for (const bad of ['mcp:', `mcp:${id}:`, 'mcp:mcp_missing:add', 'nope']) {
      expect((await t.request(`${ws}/agents`, { json: agentBody([bad]) })).status, bad).toBe(400);
    }
    expect((await t.request(`${ws}/agents`, { json: agentBody([mcpToolId(id, 'add'), mcpToolId(id, 'add')]) })).status).toBe(400);
    // The agent keeps the id after the server is deleted (see below), and sending it back does not fail.
    agentWithMcp = agent.id;
  });

  it('removes a server (204), then it is gone; agents keep the ids they had', async () => {
    expect((await t.request(`${ws}/mcp-servers/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(`${ws}/mcp-servers/${id}`)).status).toBe(404);
    const tools = (await json(await t.request(`${ws}/tools`))).data;
    expect(tools.some((tool: { serverId: string | null }) => tool.serverId === id)).toBe(false);
    const agent = await json(await t.request(`${ws}/agents/${agentWithMcp}`));
    expect(agent.toolIds).toContain(mcpToolId(id, 'lookup_fact'));
    const resent = await t.request(`${ws}/agents/${agentWithMcp}`, { method: 'PATCH', json: { toolIds: agent.toolIds } });
    expect(resent.status).toBe(200);
    // Adding an id of the deleted server is refused.
    expect((await t.request(`${ws}/agents/${agentWithMcp}`, { method: 'PATCH', json: { toolIds: [...agent.toolIds, mcpToolId(id, 'add')] } })).status).toBe(
      400,
    );
  });
});
