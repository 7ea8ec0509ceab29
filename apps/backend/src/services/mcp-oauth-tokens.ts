import { auth, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type mcpServer, mcpServerOAuth } from '../db/schema';
import { type ConnectOptions, connectMcp, type McpConnection, type McpEndpoint } from '../mcp/connect';
import { MCP_CONNECT_TIMEOUT_MS, McpConnectError, NEEDS_CONNECTION } from '../mcp/failures';
import type { OAuthChallenge } from '../mcp/oauth-challenge';
import { log } from '../ops/logger';
import type { Secrets } from '../secrets/secrets';
import { expiryOf, findOAuthRow, type McpOAuthRow, readRecord, sealClient, sealTokens, sealVerifier, WorkspaceOAuthProvider } from './mcp-oauth-provider';

type ServerRow = typeof mcpServer.$inferSelect;

export interface McpOAuthDeps {
  db: Database;
  secrets: Secrets;
  /** The guarded outbound fetch: discovery, registration and token requests pass the same address policy as MCP requests. */
  mcpFetch: typeof fetch;
  mcpTimeoutMs?: number;
}

/** Tokens this close to their expiry are renewed before use rather than sent to be refused. */
const EXPIRY_MARGIN_MS = 30_000;

/** The guarded fetch with a deadline per request: an authorization server that never answers does not hold a turn. */
export function oauthFetch(deps: McpOAuthDeps): typeof fetch {
  const ms = deps.mcpTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    deps.mcpFetch(input, {
      ...init,
      signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms),
    })) as typeof fetch;
}

/**
 * Writes back what `auth()` changed (encrypted), and `extra` columns. `ifTokens` makes it a
 * compare-and-set on the stored tokens (a refresh: of two at once, the first one's tokens are
 * kept, and a refresh token the server has already rotated is not written over them).
 * Returns false when that comparison failed.
 */
export async function writeRecord(
  deps: McpOAuthDeps,
  server: Pick<ServerRow, 'id' | 'workspaceId'>,
  provider: WorkspaceOAuthProvider | undefined,
  extra: Partial<McpOAuthRow>,
  ifTokens?: string | null,
): Promise<boolean> {
  const { record, changed } = provider ?? { record: {}, changed: new Set() };
  const set: Partial<McpOAuthRow> = { ...extra, updatedAt: new Date() };
  if (changed.has('client')) set.client = record.client ? sealClient(deps.secrets, server.id, record.client) : null;
  if (changed.has('discovery')) set.discovery = (record.discovery ?? null) as McpOAuthRow['discovery'];
  if (changed.has('verifier')) set.pendingVerifier = record.verifier ? sealVerifier(deps.secrets, server.id, record.verifier) : null;
  if (changed.has('tokens')) {
    set.tokens = record.tokens ? sealTokens(deps.secrets, server.id, record.tokens) : null;
    set.tokensExpireAt = record.tokens ? expiryOf(record.tokens) : null;
    if (!record.tokens) set.connectedAt = null;
  }
  if (ifTokens !== undefined) {
    const updated = await deps.db
      .update(mcpServerOAuth)
      .set(set)
      .where(
        and(
          eq(mcpServerOAuth.workspaceId, server.workspaceId),
          eq(mcpServerOAuth.serverId, server.id),
          ifTokens === null ? isNull(mcpServerOAuth.tokens) : eq(mcpServerOAuth.tokens, ifTokens),
        ),
      )
      .returning({ id: mcpServerOAuth.serverId });
    return updated.length > 0;
  }
  await deps.db
    .insert(mcpServerOAuth)
    .values({ ...set, serverId: server.id, workspaceId: server.workspaceId })
    .onConflictDoUpdate({ target: mcpServerOAuth.serverId, set, setWhere: eq(mcpServerOAuth.workspaceId, server.workspaceId) });
  return true;
}

// One refresh per server at a time in this process: a rotating refresh token is good for one use.
const refreshing = new Map<string, Promise<OAuthTokens | undefined>>();

/**
 * Renews the server's tokens with its refresh token (the SDK's `auth()`: stored discovery,
 * then the token endpoint). Returns the tokens stored afterwards: new ones, the old ones when
 * the server could not be reached, none when it refused the refresh token (connect again).
 */
export function refreshOAuthTokens(deps: McpOAuthDeps, server: ServerRow): Promise<OAuthTokens | undefined> {
  let pending = refreshing.get(server.id);
  if (!pending) {
    pending = renew(deps, server).finally(() => refreshing.delete(server.id));
    refreshing.set(server.id, pending);
  }
  return pending;
}

async function renew(deps: McpOAuthDeps, server: ServerRow): Promise<OAuthTokens | undefined> {
  const row = await findOAuthRow(deps.db, server.workspaceId, server.id);
  const record = readRecord(deps.secrets, row);
  if (!row || !record.tokens?.refresh_token) return record.tokens;
  const provider = new WorkspaceOAuthProvider(record, undefined, 'refresh');
  try {
    await auth(provider, { serverUrl: server.url, fetchFn: oauthFetch(deps) });
  } catch (err) {
    // Neither the error's text (it may quote the server) nor any token: its kind only.
    log.warn({ mcpServerId: server.id, reason: err instanceof Error ? err.name : 'error' }, 'renewing the OAuth tokens of an MCP server failed');
  }
  // A flow that needs the browser again only tells us that the tokens are gone.
  if (!(await writeRecord(deps, server, provider, {}, row.tokens))) {
    return readRecord(deps.secrets, await findOAuthRow(deps.db, server.workspaceId, server.id)).tokens;
  }
  return record.tokens;
}

/** Whether a `401` is an OAuth server's: it named its resource metadata, or publishes it at the well-known address. */
async function wantsOAuth(deps: McpOAuthDeps, url: string, challenge: OAuthChallenge): Promise<boolean> {
  if (challenge.resourceMetadataUrl) return true;
  try {
    await discoverOAuthProtectedResourceMetadata(url, undefined, oauthFetch(deps));
    return true;
  } catch {
    return false;
  }
}

const withBearer = (endpoint: McpEndpoint, tokens: OAuthTokens | undefined): McpEndpoint =>
  tokens ? { ...endpoint, headers: { ...endpoint.headers, Authorization: `Bearer ${tokens.access_token}` } } : endpoint;

/**
 * Connects to a workspace's server like `connectMcp`, with its OAuth access token when Baton
 * holds one: renewed first when it has expired, and once more when the server refuses it. A
 * server that answers with an OAuth challenge and no token works is recorded (the challenge's
 * metadata address and scope, for Connect) and fails as `needs_connection`. An Authorization
 * header the admin configured is sent as it is, and OAuth stays out of the way.
 */
export async function connectWorkspaceMcp(deps: McpOAuthDeps, server: ServerRow, endpoint: McpEndpoint, options: ConnectOptions = {}): Promise<McpConnection> {
  if (Object.keys(endpoint.headers).some((name) => name.toLowerCase() === 'authorization')) return connectMcp(endpoint, deps.mcpFetch, options);
  const row = await findOAuthRow(deps.db, server.workspaceId, server.id);
  let tokens = readRecord(deps.secrets, row).tokens;
  if (tokens && row?.tokensExpireAt && row.tokensExpireAt.getTime() - Date.now() < EXPIRY_MARGIN_MS) tokens = await refreshOAuthTokens(deps, server);
  try {
    return await connectMcp(withBearer(endpoint, tokens), deps.mcpFetch, options);
  } catch (err) {
    if (!(err instanceof McpConnectError) || !err.challenge || options.signal?.aborted) throw err;
    let challenge = err.challenge;
    if (tokens) {
      // Refused before its announced expiry (revoked, or a clock apart): renew once and try again.
      const renewed = await refreshOAuthTokens(deps, server);
      if (renewed && renewed.access_token !== tokens.access_token) {
        try {
          return await connectMcp(withBearer(endpoint, renewed), deps.mcpFetch, options);
        } catch (again) {
          if (!(again instanceof McpConnectError) || !again.challenge) throw again;
          challenge = again.challenge;
        }
      }
    }
    if (!row && !(await wantsOAuth(deps, server.url, challenge))) throw err;
    // Tokens the server refuses and that cannot be renewed are of no use: forgotten, so the page says "connect".
    const forget = tokens ? new WorkspaceOAuthProvider({}, undefined, 'refresh') : undefined;
    forget?.invalidateCredentials('tokens');
    await writeRecord(deps, server, forget, {
      resourceMetadataUrl: challenge.resourceMetadataUrl ?? row?.resourceMetadataUrl ?? null,
      scope: challenge.scope ?? row?.scope ?? null,
    });
    throw new McpConnectError(NEEDS_CONNECTION, challenge);
  }
}
