import { timingSafeEqual } from 'node:crypto';
import { errorCodes, type McpOAuthConnect, type McpServer } from '@baton/schemas';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { and, eq } from 'drizzle-orm';
import { mcpServerOAuth } from '../db/schema';
import { AppError, notFound } from '../errors';
import { OutboundRefusedError } from '../outbound/guarded-fetch';
import { log } from '../ops/logger';
import { findOAuthRow, hashState, readRecord, WorkspaceOAuthProvider } from './mcp-oauth-provider';
import { type McpOAuthDeps, oauthFetch, writeRecord } from './mcp-oauth-tokens';
import { findMcpServer, getMcpServer, refreshMcpServer } from './mcp-servers';

/** How long an admin has to come back from the authorization server. */
export const OAUTH_PENDING_MS = 10 * 60_000;

export interface McpOAuthFlowDeps extends McpOAuthDeps {
  /** Baton's address as browsers reach it (BATON_PUBLIC_URL): the callback is under it. */
  publicUrl: string;
}

/** Where the authorization server sends the admin's browser back (a backend route, reached through the web app's /api). */
export const oauthCallbackUrl = (publicUrl: string, workspaceId: string, serverId: string) =>
  `${publicUrl}/api/workspaces/${encodeURIComponent(workspaceId)}/mcp-servers/${encodeURIComponent(serverId)}/oauth/callback`;

const clearPending = { pendingState: null, pendingVerifier: null, pendingUserId: null, pendingStartedAt: null };

/** A failure of discovery or registration as a person can act on it, never the servers' own words. */
function startFailed(err: unknown): AppError {
  if (err instanceof OutboundRefusedError) return new AppError(502, errorCodes.unavailable, err.message);
  const text = err instanceof Error ? err.message : '';
  const message = /dynamic client registration/i.test(text)
    ? 'The authorization server does not let clients register themselves (RFC 7591 dynamic registration), which Baton needs to connect.'
    : 'Baton could not start the authorization: the server’s OAuth metadata or its authorization server could not be read. Check the URL and that the server and its authorization server are reachable from Baton.';
  return new AppError(502, errorCodes.unavailable, message);
}

/**
 * "Connect": discovers the server's authorization server (its resource metadata, RFC 8414
 * metadata), registers Baton there when it has no registration yet (RFC 7591), and returns
 * the authorization URL (code flow with PKCE) the admin's browser goes to; the state's hash,
 * the encrypted verifier and who started it are kept for the callback. When a stored refresh
 * token still works, Baton is connected at once (`authorizationUrl: null`).
 */
export async function startMcpOAuth(deps: McpOAuthFlowDeps, workspaceId: string, serverId: string, userId: string): Promise<McpOAuthConnect> {
  const server = await findMcpServer(deps.db, workspaceId, serverId);
  if (!server) throw notFound('MCP server', serverId);
  const row = await findOAuthRow(deps.db, workspaceId, serverId);
  const provider = new WorkspaceOAuthProvider(readRecord(deps.secrets, row), oauthCallbackUrl(deps.publicUrl, workspaceId, serverId), 'connect');
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, {
      serverUrl: server.url,
      resourceMetadataUrl: row?.resourceMetadataUrl ? new URL(row.resourceMetadataUrl) : undefined,
      scope: row?.scope ?? undefined,
      fetchFn: oauthFetch(deps),
    });
  } catch (err) {
    // A registration made before the failure is kept: the next try reuses it.
    await writeRecord(deps, server, provider, {});
    log.warn({ mcpServerId: serverId, reason: err instanceof Error ? err.name : 'error' }, 'starting OAuth for an MCP server failed');
    throw startFailed(err);
  }
  if (result === 'AUTHORIZED') {
    await writeRecord(deps, server, provider, { ...clearPending, connectedAt: row?.connectedAt ?? new Date() });
    return { authorizationUrl: null, server: await refreshMcpServer(deps, workspaceId, serverId) };
  }
  const url = provider.authorizationUrl;
  // The browser is sent there: nothing but a web address (never javascript: or data:).
  if (!url || !['http:', 'https:'].includes(url.protocol) || !provider.newState) {
    throw new AppError(502, errorCodes.unavailable, 'The authorization server’s metadata gives no usable authorization endpoint (an http(s) address).');
  }
  await writeRecord(deps, server, provider, { pendingState: hashState(provider.newState), pendingUserId: userId, pendingStartedAt: new Date() });
  return { authorizationUrl: url.href, server: await getMcpServer(deps.db, workspaceId, serverId) };
}

export interface OAuthCallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

/** How a callback ended, for the settings page: `connected`, or why not. */
export type OAuthCallbackOutcome = 'connected' | 'denied' | 'expired' | 'failed';

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The authorization server sent the admin back: the state must be the one this admin's
 * Connect made, within 10 minutes; then the code is exchanged (with the PKCE verifier) for
 * tokens, stored encrypted, and the tools are listed. A state that does not match changes
 * nothing — a forged callback cannot cancel or complete someone's Connect.
 */
export async function completeMcpOAuth(
  deps: McpOAuthFlowDeps,
  workspaceId: string,
  serverId: string,
  userId: string,
  query: OAuthCallbackQuery,
): Promise<OAuthCallbackOutcome> {
  const server = await findMcpServer(deps.db, workspaceId, serverId);
  if (!server) throw notFound('MCP server', serverId);
  const row = await findOAuthRow(deps.db, workspaceId, serverId);
  const fresh = row?.pendingStartedAt && Date.now() - row.pendingStartedAt.getTime() < OAUTH_PENDING_MS;
  if (!row?.pendingState || !query.state || !fresh || row.pendingUserId !== userId || !sameHash(hashState(query.state), row.pendingState)) return 'expired';
  if (query.error || !query.code) {
    await writeRecord(deps, server, undefined, clearPending);
    return query.error === 'access_denied' ? 'denied' : 'failed';
  }
  const provider = new WorkspaceOAuthProvider(readRecord(deps.secrets, row), oauthCallbackUrl(deps.publicUrl, workspaceId, serverId), 'callback');
  try {
    await auth(provider, { serverUrl: server.url, authorizationCode: query.code, fetchFn: oauthFetch(deps) });
  } catch (err) {
    await writeRecord(deps, server, undefined, clearPending);
    log.warn({ mcpServerId: serverId, reason: err instanceof Error ? err.name : 'error' }, 'exchanging an OAuth code for an MCP server failed');
    return 'failed';
  }
  await writeRecord(deps, server, provider, { ...clearPending, connectedAt: new Date() });
  await refreshMcpServer(deps, workspaceId, serverId);
  return 'connected';
}

/** "Disconnect": Baton forgets the server's tokens (and any Connect under way); the listing then says it needs connecting. */
export async function disconnectMcpOAuth(deps: McpOAuthDeps, workspaceId: string, serverId: string): Promise<McpServer> {
  const server = await findMcpServer(deps.db, workspaceId, serverId);
  if (!server) throw notFound('MCP server', serverId);
  await deps.db
    .update(mcpServerOAuth)
    .set({ tokens: null, tokensExpireAt: null, connectedAt: null, ...clearPending, updatedAt: new Date() })
    .where(and(eq(mcpServerOAuth.workspaceId, workspaceId), eq(mcpServerOAuth.serverId, serverId)));
  return server.enabled ? refreshMcpServer(deps, workspaceId, serverId) : getMcpServer(deps.db, workspaceId, serverId);
}
