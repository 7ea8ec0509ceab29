import { and, eq, inArray } from 'drizzle-orm';
import { parseMcpToolId } from '@baton/schemas';
import type { Database } from '../db/client';
import { agent, provider } from '../db/schema';
import { invalidRequest } from '../errors';
import { isBuiltInToolId } from './built-in-tools';
import { findMcpServersByIds } from './mcp-servers';

// What an agent's lists may hold (docs/design.md §4), checked on create and update inside their transaction.

/**
 * The sub-agent rules of docs/design.md §4: no self-assignment, no duplicates, and every id an
 * agent of this same workspace. Depth is limited at run time, not here. Returns the list
 * to store.
 *
 * The sub-agents are locked FOR KEY SHARE until the transaction ends, so a concurrent
 * delete of one either waits and then unlinks it from the list written here, or has
 * already happened and the id is missing; never a dangling id. KEY SHARE conflicts with
 * DELETE but not with ordinary updates, so two agents can be made each other's
 * sub-agents at the same time (FOR SHARE would deadlock them).
 *
 * A missing id the agent already had (`stored`) is dropped rather than refused: it was
 * deleted since the client read the agent (or left behind before deletes were locked
 * out), and sending back the list it read must not fail. A missing id being added is
 * still a 400.
 */
export async function validateSubAgentIds(db: Database, workspaceId: string, selfId: string, ids: string[], stored: readonly string[] = []): Promise<string[]> {
  const seen = new Set<string>();
  for (const id of ids) {
    if (id === selfId) throw invalidRequest(`subAgentIds: an agent cannot be its own sub-agent ("${id}")`);
    if (seen.has(id)) throw invalidRequest(`subAgentIds: "${id}" is listed more than once`);
    seen.add(id);
  }
  if (ids.length === 0) return ids;
  const found = await db
    .select({ id: agent.id })
    .from(agent)
    .where(and(eq(agent.workspaceId, workspaceId), inArray(agent.id, ids)))
    .for('key share');
  const existing = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !existing.has(id) && !stored.includes(id));
  if (missing) throw invalidRequest(`subAgentIds: agent "${missing}" does not exist in this workspace`);
  return ids.filter((id) => existing.has(id));
}

/**
 * Built-in ids, and `mcp:<serverId>:<toolName>` of a server of this same workspace (the
 * tool need not be in its last listing: a server may be down while an agent is edited).
 * An MCP id the agent already had (`stored`) is kept even if its server is gone: the
 * runtime skips it, and sending back the list the client read must not fail.
 */
/** Which instance servers (BATON_MCP_CONFIG) exist: their tools may be chosen like a workspace server's. */
export type InstanceServerCheck = (serverId: string) => boolean;

export async function validateToolIds(
  db: Database,
  workspaceId: string,
  ids: string[] | undefined,
  stored: readonly string[] = [],
  instanceServer: InstanceServerCheck = () => false,
) {
  if (!ids) return;
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw invalidRequest(`toolIds: "${duplicate}" is listed more than once`);
  const serverIds = [...new Set(ids.flatMap((id) => parseMcpToolId(id)?.serverId ?? []))];
  const servers = new Set((await findMcpServersByIds(db, workspaceId, serverIds)).map((s) => s.id));
  const known = (id: string) => {
    if (isBuiltInToolId(id)) return true;
    const mcp = parseMcpToolId(id);
    return mcp !== null && (servers.has(mcp.serverId) || instanceServer(mcp.serverId) || stored.includes(id));
  };
  const unknown = ids.find((id) => !known(id));
  if (unknown) throw invalidRequest(`toolIds: unknown tool "${unknown}" (see GET /api/workspaces/${workspaceId}/tools)`);
}

export async function validateProviderId(db: Database, workspaceId: string, providerId: string | null | undefined) {
  if (!providerId) return;
  const [row] = await db
    .select({ id: provider.id })
    .from(provider)
    .where(and(eq(provider.workspaceId, workspaceId), eq(provider.id, providerId)))
    .limit(1);
  if (!row) throw invalidRequest(`providerId: provider "${providerId}" does not exist in this workspace`);
}
