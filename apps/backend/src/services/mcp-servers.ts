import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { errorCodes, mcpToolId, type McpFailure, type McpServer, type McpServerCreateParsed, type McpServerUpdate, type McpTool } from '@baton/schemas';
import type { Database } from '../db/client';
import { mcpServer, mcpServerOAuth } from '../db/schema';
import { violatedUniqueConstraint } from '../db/unique-violation';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import type { McpEndpoint, McpListing } from '../mcp/connect';
import { McpConnectError } from '../mcp/failures';
import { log } from '../ops/logger';
import { SecretUnreadableError, type Secrets } from '../secrets/secrets';
import { findOAuthRow, type McpOAuthRow } from './mcp-oauth-provider';
import { connectWorkspaceMcp } from './mcp-oauth-tokens';
import { assertSecretStaysHome } from './secret-origin';
import { sanitizeDeep } from './text-hygiene';

export type McpServerRow = typeof mcpServer.$inferSelect;

/** What the service needs besides the database: header encryption and the guarded fetch. */
export interface McpServerDeps {
  db: Database;
  secrets: Secrets;
  /** The guarded outbound fetch (workspace-configured addresses: the provider policy). */
  mcpFetch: typeof fetch;
  /** Connect-and-list deadline; tests shorten it. */
  mcpTimeoutMs?: number;
}

/** Header values never come back: only their names; of OAuth, only whether Baton is connected. */
export function toMcpServer(row: McpServerRow, oauth?: McpOAuthRow): McpServer {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    scope: 'workspace',
    url: row.url,
    transport: row.transport,
    headerNames: row.headerNames,
    enabled: row.enabled,
    tools: row.tools,
    toolsError: row.toolsError ?? null,
    stderr: null,
    toolsCheckedAt: row.toolsCheckedAt?.toISOString() ?? null,
    oauth: oauth ? { connected: oauth.tokens !== null, connectedAt: oauth.connectedAt?.toISOString() ?? null } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const inWorkspace = (workspaceId: string, id: string) => and(eq(mcpServer.workspaceId, workspaceId), eq(mcpServer.id, id));

// The ciphertext is bound to its row: copied into another server's row, it does not decrypt.
const headersContext = (serverId: string) => `mcp_server.headers:${serverId}`;

function encryptHeaders(secrets: Secrets, serverId: string, headers: Record<string, string>) {
  const names = Object.keys(headers);
  return { headers: names.length > 0 ? secrets.encrypt(JSON.stringify(headers), headersContext(serverId)) : null, headerNames: names };
}

/** The headers as sent to the server. For connections only: never a response, never a log line. */
export function readMcpHeaders(secrets: Secrets, row: Pick<McpServerRow, 'id' | 'headers'>): Record<string, string> {
  if (!row.headers) return {};
  return JSON.parse(secrets.decrypt(row.headers, headersContext(row.id))) as Record<string, string>;
}

export const endpointOf = (secrets: Secrets, row: McpServerRow): McpEndpoint => ({
  url: row.url,
  transport: row.transport,
  headers: readMcpHeaders(secrets, row),
});

export const UNIQUE_MCP_SERVER_NAME_INDEX = 'mcp_server_workspace_name_unique';

async function withUniqueName<T>(name: string | undefined, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (err) {
    if (name === undefined || violatedUniqueConstraint(err) !== UNIQUE_MCP_SERVER_NAME_INDEX) throw err;
    const message = `An MCP server named "${name}" already exists in this workspace`;
    throw new AppError(409, errorCodes.conflict, message, [{ path: ['name'], message }]);
  }
}

export async function listMcpServers(db: Database, workspaceId: string): Promise<McpServer[]> {
  const [rows, oauth] = await Promise.all([
    db.select().from(mcpServer).where(eq(mcpServer.workspaceId, workspaceId)).orderBy(asc(mcpServer.createdAt), asc(mcpServer.id)),
    db.select().from(mcpServerOAuth).where(eq(mcpServerOAuth.workspaceId, workspaceId)),
  ]);
  const oauthOf = new Map(oauth.map((o) => [o.serverId, o]));
  return rows.map((row) => toMcpServer(row, oauthOf.get(row.id)));
}

export async function findMcpServer(db: Database, workspaceId: string, id: string): Promise<McpServerRow | undefined> {
  const [row] = await db.select().from(mcpServer).where(inWorkspace(workspaceId, id)).limit(1);
  return row;
}

/** The servers of this workspace among `ids` (another workspace's ids are simply absent). */
export async function findMcpServersByIds(db: Database, workspaceId: string, ids: string[]): Promise<McpServerRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mcpServer)
    .where(and(eq(mcpServer.workspaceId, workspaceId), inArray(mcpServer.id, ids)));
}

export async function getMcpServer(db: Database, workspaceId: string, id: string): Promise<McpServer> {
  const row = await findMcpServer(db, workspaceId, id);
  if (!row) throw notFound('MCP server', id);
  return toMcpServer(row, await findOAuthRow(db, workspaceId, id));
}

const UNREADABLE_HEADERS: McpFailure = {
  kind: 'unauthorized',
  message: "The stored headers cannot be decrypted with this server's secret key (BATON_SECRET_KEY changed). Enter the headers again.",
};

// A listing is shown in forms and offered to models: bounded, and storable.
const MAX_TOOLS = 200;
const MAX_DESCRIPTION_CHARS = 2_000;

export function toolsOf(serverId: string, listing: McpListing): McpTool[] {
  return sanitizeDeep(
    listing.tools.slice(0, MAX_TOOLS).map((t) => ({
      id: mcpToolId(serverId, t.name),
      name: t.name,
      description: (t.description ?? t.title ?? '').slice(0, MAX_DESCRIPTION_CHARS),
      inputSchema: t.inputSchema,
    })),
  );
}

/**
 * Connects, lists the tools and stores the listing, or the failure (a failure is a result,
 * not an error of the request). The row is written only if its address and headers are
 * still the ones listed, so a concurrent edit is never overwritten with a stale listing.
 */
export async function refreshMcpServer(deps: McpServerDeps, workspaceId: string, id: string): Promise<McpServer> {
  const row = await findMcpServer(deps.db, workspaceId, id);
  if (!row) throw notFound('MCP server', id);
  let tools: McpTool[] = [];
  let toolsError: McpFailure | null = null;
  try {
    const connection = await connectWorkspaceMcp(deps, row, endpointOf(deps.secrets, row), { timeoutMs: deps.mcpTimeoutMs });
    tools = toolsOf(row.id, connection.listing);
    await connection.close();
  } catch (err) {
    if (!(err instanceof McpConnectError) && !(err instanceof SecretUnreadableError)) throw err;
    // Failures keep the last good listing: agents keep seeing which tools they had selected.
    tools = row.tools;
    toolsError = err instanceof McpConnectError ? err.failure : UNREADABLE_HEADERS;
  }
  const updated = await storeListing(deps.db, row, tools, toolsError);
  return updated ? toMcpServer(updated, await findOAuthRow(deps.db, workspaceId, id)) : getMcpServer(deps.db, workspaceId, id);
}

/** Writes a listing the server gave, unless the row's address or headers changed since it was read (then undefined). */
async function storeListing(db: Database, row: McpServerRow, tools: McpTool[], toolsError: McpFailure | null): Promise<McpServerRow | undefined> {
  const [updated] = await db
    .update(mcpServer)
    .set({ tools, toolsError, toolsCheckedAt: new Date() })
    .where(
      and(
        inWorkspace(row.workspaceId, row.id),
        eq(mcpServer.url, row.url),
        eq(mcpServer.transport, row.transport),
        row.headers === null ? isNull(mcpServer.headers) : eq(mcpServer.headers, row.headers),
      ),
    )
    .returning();
  return updated;
}

/**
 * A turn's session lists the tools again: when the server's tools changed since the stored
 * listing (added, removed, new descriptions or schemas), the stored one is replaced, so the
 * next turns and the agent editor see them without a manual refresh. Never throws.
 */
export async function storeListingIfChanged(db: Database, row: McpServerRow, listing: McpListing): Promise<void> {
  const tools = toolsOf(row.id, listing);
  if (JSON.stringify(tools) === JSON.stringify(row.tools) && row.toolsError === null) return;
  await storeListing(db, row, tools, null).catch((err: unknown) =>
    log.warn({ mcpServerId: row.id, err: String(err) }, 'could not store an MCP server’s new listing'),
  );
}

/** Adds the server and lists its tools right away (when enabled); an unreachable server is still added, with the failure. */
export async function createMcpServer(deps: McpServerDeps, workspaceId: string, input: McpServerCreateParsed): Promise<McpServer> {
  const id = newId('mcp');
  const { headers, ...rest } = input;
  const row = await withUniqueName(input.name, async () => {
    const [inserted] = await deps.db
      .insert(mcpServer)
      .values({ ...rest, ...encryptHeaders(deps.secrets, id, headers), id, workspaceId })
      .returning();
    return inserted!;
  });
  return row.enabled ? refreshMcpServer(deps, workspaceId, id) : toMcpServer(row);
}

/**
 * `headers`, when given, replaces the stored map. A URL on another origin keeps no stored
 * headers: the patch must give them again (or `{}`). A new address, transport or headers (or
 * enabling) lists the tools again.
 */
export async function updateMcpServer(deps: McpServerDeps, workspaceId: string, id: string, patch: McpServerUpdate): Promise<McpServer> {
  const { headers, ...rest } = patch;
  const row = await withUniqueName(patch.name, () =>
    deps.db.transaction(async (tx) => {
      // Under the row's lock: headers stored meanwhile are judged too.
      const [current] = await tx.select().from(mcpServer).where(inWorkspace(workspaceId, id)).for('update');
      if (!current) return undefined;
      assertSecretStaysHome({
        storedUrl: current.url,
        nextUrl: patch.url,
        hasStoredSecret: current.headers !== null,
        secretGiven: headers !== undefined,
        field: 'headers',
      });
      // Tokens were issued for the old address (its resource): another one starts without them.
      if (patch.url !== undefined && patch.url !== current.url) await tx.delete(mcpServerOAuth).where(eq(mcpServerOAuth.serverId, id));
      const [updated] = await tx
        .update(mcpServer)
        .set({ ...rest, ...(headers === undefined ? {} : encryptHeaders(deps.secrets, id, headers)), updatedAt: new Date() })
        .where(inWorkspace(workspaceId, id))
        .returning();
      return updated;
    }),
  );
  if (!row) throw notFound('MCP server', id);
  const connectionChanged = patch.url !== undefined || patch.transport !== undefined || headers !== undefined || patch.enabled === true;
  return connectionChanged && row.enabled ? refreshMcpServer(deps, workspaceId, id) : getMcpServer(deps.db, workspaceId, id);
}

/** Agents keep the server's tool ids; the runtime skips ids whose server is gone. */
export async function deleteMcpServer(db: Database, workspaceId: string, id: string): Promise<void> {
  const deleted = await db.delete(mcpServer).where(inWorkspace(workspaceId, id)).returning({ id: mcpServer.id });
  if (deleted.length === 0) throw notFound('MCP server', id);
}
