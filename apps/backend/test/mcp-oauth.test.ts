import { Writable } from 'node:stream';
import { type OAuthMcpServer, startOAuthMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServerOAuth } from '../src/db/schema';
import { logTo } from '../src/ops/logger';
import { invitedAccount } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// MCP authorization against a real OAuth-protected MCP server built with the SDK's server auth
// pieces (mcpAuthRouter, requireBearerAuth, an auto-approving in-memory authorization server).
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const CALLBACK = /^http:\/\/localhost:3000(\/api\/workspaces\/default\/mcp-servers\/[^/]+\/oauth\/callback)$/;

let oauth: OAuthMcpServer;
let id: string;
const logLines: string[] = [];
const answers: string[] = [];
let restoreLog: () => void;

/** Every answer's text is kept: no token may ever be in one. */
async function call(path: string, init?: RequestInit & { json?: unknown }) {
  const res = await t.request(path, init);
  answers.push(`${res.headers.get('location') ?? ''}\n${await res.clone().text()}`);
  return res;
}
const server = async () => json(await call(`${ws}/mcp-servers/${id}`));
const oauthRow = async (serverId = id) => (await t.handle.db.select().from(mcpServerOAuth).where(eq(mcpServerOAuth.serverId, serverId)))[0];

/** Connect as the admin's browser would: start, follow the authorization URL, land on Baton's callback. */
async function connect(serverId = id) {
  const started = await call(`${ws}/mcp-servers/${serverId}/oauth/connect`, { method: 'POST' });
  expect(started.status).toBe(200);
  const { authorizationUrl } = await json(started);
  const approved = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const back = new URL(approved.headers.get('location')!);
  const path = CALLBACK.exec(`${back.origin}${back.pathname}`)?.[1];
  expect(path).toBeDefined();
  const done = await call(`${path}${back.search}`);
  expect(done.status).toBe(302);
  return { authorizationUrl: new URL(authorizationUrl), back, landing: done.headers.get('location')! };
}

beforeAll(async () => {
  oauth = await startOAuthMcpServer();
  restoreLog = logTo(new Writable({ write: (chunk, _enc, next) => (logLines.push(String(chunk)), next()) }));
});
afterAll(async () => {
  restoreLog?.();
  await oauth?.close();
});

describe('MCP servers with OAuth', () => {
  it('lists a server that answers with an OAuth challenge as needing a connection, not as unauthorized', async () => {
    const res = await call(`${ws}/mcp-servers`, { json: { name: 'Protected', url: oauth.url } });
    expect(res.status).toBe(201);
    const created = await json(res);
    id = created.id;
    expect(created.toolsError).toEqual({ kind: 'needs_connection', message: expect.stringContaining('Connect') });
    expect(created.oauth).toEqual({ connected: false, connectedAt: null });
    expect(created.tools).toEqual([]);
    // The challenge's metadata address is kept for Connect.
    expect((await oauthRow())!.resourceMetadataUrl).toBe(`${oauth.issuer}/.well-known/oauth-protected-resource/mcp`);
  });

  it('connects: registration, the authorization URL with PKCE, Baton’s callback, encrypted tokens, the tools listed', async () => {
    const { authorizationUrl, back, landing } = await connect();
    expect(authorizationUrl.origin).toBe(oauth.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorizationUrl.searchParams.get('resource')).toBe(oauth.url);
    expect(back.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
    expect(landing).toBe(`/w/default/settings/tool-servers?oauth=connected&server=${id}`);
    expect(oauth.counts()).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });

    const listed = await server();
    expect(listed.toolsError).toBeNull();
    expect(listed.oauth).toEqual({ connected: true, connectedAt: expect.any(String) });
    expect(listed.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['add', 'lookup_fact']);
    // At rest: encrypted, no token, no verifier left, the state gone.
    const row = (await oauthRow())!;
    const [token] = oauth.issuedAccessTokens();
    expect(row.tokens).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ pendingState: null, pendingVerifier: null, pendingUserId: null });
  });

  it('an agent’s turn calls the server’s tool with the token', async () => {
    const agent = await json(await call(`${ws}/agents`, { json: { name: 'OAuth fact checker', toolIds: [mcpToolId(id, 'lookup_fact')] } }));
    const chat = await json(await call(`${ws}/chats`, { json: { agentId: agent.id } }));
    const body = await json(await call(`${ws}/chats/${chat.id}/messages`, { json: { text: '/tool lookup_fact {"topic":"otters"}' } }));
    expect(body.run.status).toBe('succeeded');
    const part = body.messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-lookup_fact');
    expect(part).toMatchObject({ state: 'output-available', output: expect.stringContaining('Sea otters') });
    expect(oauth.calls()).toContainEqual({ name: 'lookup_fact', args: { topic: 'otters' } });
  });

  it('renews the token when it has expired, and when the server refuses it before then', async () => {
    const before = (await oauthRow())!.tokens;
    // Expired by its own account: renewed before it is sent.
    await t.handle.db
      .update(mcpServerOAuth)
      .set({ tokensExpireAt: new Date(Date.now() - 1000) })
      .where(eq(mcpServerOAuth.serverId, id));
    oauth.expireAccessTokens();
    const first = await json(await call(`${ws}/mcp-servers/${id}/refresh`, { method: 'POST' }));
    expect(first.toolsError).toBeNull();
    expect(oauth.counts().refreshes).toBe(1);
    expect((await oauthRow())!.tokens).not.toBe(before);
    expect((await oauthRow())!.tokensExpireAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    // Refused although not expired (revoked): renewed once, and the listing still works.
    oauth.expireAccessTokens();
    const second = await json(await call(`${ws}/mcp-servers/${id}/refresh`, { method: 'POST' }));
    expect(second.toolsError).toBeNull();
    expect(oauth.counts().refreshes).toBe(2);
  });

  it('a token that cannot be renewed any more is forgotten: the server needs connecting again', async () => {
    oauth.expireAccessTokens();
    oauth.revokeRefreshTokens();
    const listed = await json(await call(`${ws}/mcp-servers/${id}/refresh`, { method: 'POST' }));
    expect(listed.toolsError.kind).toBe('needs_connection');
    expect(listed.oauth.connected).toBe(false);
    expect((await oauthRow())!.tokens).toBeNull();
    // Connecting again reuses the registration.
    await connect();
    expect(oauth.counts().registrations).toBe(1);
    expect((await server()).toolsError).toBeNull();
  });

  it('a callback with another state, or from someone who is not an admin, changes nothing', async () => {
    const started = await json(await call(`${ws}/mcp-servers/${id}/oauth/connect`, { method: 'POST' }));
    // Connected already with a working refresh token: no browser needed.
    expect(started.authorizationUrl).toBeNull();
    const forged = await call(`${ws}/mcp-servers/${id}/oauth/callback?code=stolen&state=guessed`);
    expect(forged.headers.get('location')).toBe(`/w/default/settings/tool-servers?oauth=expired&server=${id}`);
    const member = await invitedAccount(t.anonymous, t.owner, 'member-oauth@baton.test');
    for (const [method, path] of [
      ['POST', 'oauth/connect'],
      ['GET', 'oauth/callback?code=x&state=y'],
      ['DELETE', 'oauth'],
    ] as const) {
      expect((await call(`${ws}/mcp-servers/${id}/${path}`, { method, headers: { cookie: member.cookie } })).status).toBe(403);
    }
    expect((await server()).oauth.connected).toBe(true);
  });

  it('another workspace cannot use the tokens: its own server of the same URL needs connecting, and the rows do not decrypt there', async () => {
    const other = await json(await call('/api/workspaces', { json: { name: 'Other team' } }));
    const otherWs = `/api/workspaces/${other.id}`;
    for (const [method, path] of [
      ['POST', 'oauth/connect'],
      ['GET', 'oauth/callback?code=x&state=y'],
      ['DELETE', 'oauth'],
    ] as const) {
      expect((await call(`${otherWs}/mcp-servers/${id}/${path}`, { method })).status).toBe(404);
    }
    const theirs = await json(await call(`${otherWs}/mcp-servers`, { json: { name: 'Same server', url: oauth.url } }));
    expect(theirs.toolsError.kind).toBe('needs_connection');
    // Even the ciphertext copied into their row is of no use: it is bound to our server.
    const ours = (await oauthRow())!;
    await t.handle.db.update(mcpServerOAuth).set({ tokens: ours.tokens, tokensExpireAt: ours.tokensExpireAt }).where(eq(mcpServerOAuth.serverId, theirs.id));
    const again = await json(await call(`${otherWs}/mcp-servers/${theirs.id}/refresh`, { method: 'POST' }));
    expect(again.toolsError.kind).toBe('needs_connection');
    expect((await server()).toolsError).toBeNull();
  });

  it('disconnect forgets the tokens; the listing says the server needs connecting', async () => {
    const res = await call(`${ws}/mcp-servers/${id}/oauth`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    const listed = await json(res);
    expect(listed.oauth).toEqual({ connected: false, connectedAt: null });
    expect(listed.toolsError.kind).toBe('needs_connection');
    expect((await oauthRow())!).toMatchObject({ tokens: null, tokensExpireAt: null });
  });

  it('never puts a token in an answer or a log line', () => {
    const issued = oauth.issuedAccessTokens();
    expect(issued.length).toBeGreaterThanOrEqual(4);
    const seen = `${answers.join('\n')}\n${logLines.join('')}`;
    for (const token of issued) expect(seen).not.toContain(token);
    expect(seen).not.toMatch(/rt-[0-9a-f-]{36}/);
  });
});
