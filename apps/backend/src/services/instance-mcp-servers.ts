import { and, eq, inArray } from 'drizzle-orm';
import { errorCodes, type McpServer, type McpServerUpdate } from '@baton/schemas';
import type { Database } from '../db/client';
import { workspaceInstanceMcpServer } from '../db/schema';
import { AppError, notFound } from '../errors';
import type { InstanceMcpServers, InstanceServerStatus } from '../mcp/instance-servers';
import { toolsOf } from './mcp-servers';

/**
 * The operator's MCP servers (BATON_MCP_CONFIG) as a workspace sees them: every one listed,
 * read-only, `enabled` meaning switched on in this workspace (off until an admin does).
 */
function toMcpServer(pool: InstanceMcpServers, s: InstanceServerStatus, workspaceId: string, enabled: boolean): McpServer {
  return {
    id: s.id,
    workspaceId,
    name: s.name,
    scope: 'instance',
    url: s.url,
    transport: s.transport,
    headerNames: s.headerNames,
    enabled,
    tools: s.listing ? toolsOf(s.id, s.listing) : [],
    toolsError: s.failure,
    stderr: s.stderr,
    toolsCheckedAt: s.checkedAt?.toISOString() ?? null,
    oauth: null,
    createdAt: pool.loadedAt.toISOString(),
    updatedAt: pool.loadedAt.toISOString(),
  };
}

/** Which of `ids` (instance server ids) this workspace has switched on, and when. */
export async function enabledInstanceServerIds(db: Database, workspaceId: string, ids?: readonly string[]): Promise<Map<string, Date>> {
  if (ids && ids.length === 0) return new Map();
  const rows = await db
    .select({ serverId: workspaceInstanceMcpServer.serverId, enabledAt: workspaceInstanceMcpServer.enabledAt })
    .from(workspaceInstanceMcpServer)
    .where(and(eq(workspaceInstanceMcpServer.workspaceId, workspaceId), ids ? inArray(workspaceInstanceMcpServer.serverId, [...ids]) : undefined));
  return new Map(rows.map((r) => [r.serverId, r.enabledAt]));
}

export async function listInstanceMcpServers(db: Database, pool: InstanceMcpServers, workspaceId: string): Promise<McpServer[]> {
  if (pool.ids.length === 0) return [];
  const enabled = await enabledInstanceServerIds(db, workspaceId);
  return pool.list().map((s) => toMcpServer(pool, s, workspaceId, enabled.has(s.id)));
}

export async function getInstanceMcpServer(db: Database, pool: InstanceMcpServers, workspaceId: string, id: string): Promise<McpServer> {
  const status = pool.status(id);
  if (!status) throw notFound('MCP server', id);
  const enabled = await enabledInstanceServerIds(db, workspaceId, [id]);
  return toMcpServer(pool, status, workspaceId, enabled.has(id));
}

const readOnly = () =>
  new AppError(
    403,
    errorCodes.forbidden,
    "This MCP server is configured by the instance's operator (BATON_MCP_CONFIG): a workspace can only switch it on or off.",
  );

/** A workspace's admins switch an operator's server on or off for it; nothing else of it can change here. */
export async function updateInstanceMcpServer(
  db: Database,
  pool: InstanceMcpServers,
  workspaceId: string,
  id: string,
  patch: McpServerUpdate,
): Promise<McpServer> {
  if (!pool.has(id)) throw notFound('MCP server', id);
  const { enabled, ...rest } = patch;
  if (Object.keys(rest).length > 0) throw readOnly();
  if (enabled === true) {
    await db.insert(workspaceInstanceMcpServer).values({ workspaceId, serverId: id }).onConflictDoNothing();
  } else if (enabled === false) {
    await db
      .delete(workspaceInstanceMcpServer)
      .where(and(eq(workspaceInstanceMcpServer.workspaceId, workspaceId), eq(workspaceInstanceMcpServer.serverId, id)));
  }
  return getInstanceMcpServer(db, pool, workspaceId, id);
}

export function refuseInstanceMcpServerDelete(pool: InstanceMcpServers, id: string): never {
  if (!pool.has(id)) throw notFound('MCP server', id);
  throw readOnly();
}

export async function refreshInstanceMcpServer(db: Database, pool: InstanceMcpServers, workspaceId: string, id: string): Promise<McpServer> {
  if (!pool.has(id)) throw notFound('MCP server', id);
  await pool.refresh(id);
  return getInstanceMcpServer(db, pool, workspaceId, id);
}
