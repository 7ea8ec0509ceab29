import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_DELEGATION_SETTINGS, errorCodes, parseMcpToolId, type Agent, type AgentCreateParsed, type AgentUpdate, type ListQuery } from '@baton/schemas';
import type { Database } from '../db/client';
import { agent, provider } from '../db/schema';
import { violatedUniqueConstraint } from '../db/unique-violation';
import { AppError, invalidRequest, notFound } from '../errors';
import { isBuiltInToolId } from './built-in-tools';
import { newId } from '../ids';
import { findMcpServersByIds } from './mcp-servers';
import { keysetOrder, keysetWhere, toPage } from './pagination';
import type { Secrets } from '../secrets/secrets';
import { assertRemoteShape, remoteColumns } from './remote-agents';

export type AgentRow = typeof agent.$inferSelect;

export function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    systemPrompt: row.systemPrompt,
    providerId: row.providerId,
    modelId: row.modelId,
    temperature: row.temperature,
    maxSteps: row.maxSteps,
    toolIds: row.toolIds,
    subAgentIds: row.subAgentIds,
    // Rows stored before a setting existed get its default.
    delegation: { ...DEFAULT_DELEGATION_SETTINGS, ...row.delegation },
    // Header values never leave: only their names.
    remote: row.remote ? { cardUrl: row.remote.cardUrl, headerNames: row.remote.headerNames } : null,
    a2aPublished: row.a2aPublished,
    allowModelOverride: row.allowModelOverride,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const keyset = { at: agent.createdAt, id: agent.id, direction: 'asc' } as const;
const inWorkspace = (workspaceId: string, id: string) => and(eq(agent.workspaceId, workspaceId), eq(agent.id, id));

export async function listAgents(db: Database, workspaceId: string, query: ListQuery) {
  const rows = await db
    .select()
    .from(agent)
    .where(and(eq(agent.workspaceId, workspaceId), keysetWhere(keyset, query.cursor)))
    .orderBy(...keysetOrder(keyset))
    .limit(query.limit + 1);
  return toPage(rows, query, (r) => ({ at: r.createdAt, id: r.id }), toAgent);
}

export async function findAgent(db: Database, workspaceId: string, id: string): Promise<AgentRow | undefined> {
  const [row] = await db.select().from(agent).where(inWorkspace(workspaceId, id)).limit(1);
  return row;
}

/** The agents of this workspace among `ids` (missing ids are simply absent). */
export async function findAgentsByIds(db: Database, workspaceId: string, ids: string[]): Promise<AgentRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(agent)
    .where(and(eq(agent.workspaceId, workspaceId), inArray(agent.id, ids)));
}

export async function getAgent(db: Database, workspaceId: string, id: string): Promise<Agent> {
  const row = await findAgent(db, workspaceId, id);
  if (!row) throw notFound('Agent', id);
  return toAgent(row);
}

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

async function validateToolIds(
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

async function validateProviderId(db: Database, workspaceId: string, providerId: string | null | undefined) {
  if (!providerId) return;
  const [row] = await db
    .select({ id: provider.id })
    .from(provider)
    .where(and(eq(provider.workspaceId, workspaceId), eq(provider.id, providerId)))
    .limit(1);
  if (!row) throw invalidRequest(`providerId: provider "${providerId}" does not exist in this workspace`);
}

/** The index that keeps agent names unique per workspace, case-insensitively (see the schema). */
export const UNIQUE_AGENT_NAME_INDEX = 'agent_workspace_name_unique';

/**
 * The database decides, not a read before the write: of two saves of one name at once,
 * exactly one wins. `details` is a field issue so forms show it next to the Name field.
 */
async function withUniqueName<T>(name: string | undefined, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (err) {
    if (name === undefined || violatedUniqueConstraint(err) !== UNIQUE_AGENT_NAME_INDEX) throw err;
    const message = `An agent named "${name}" already exists in this workspace`;
    throw new AppError(409, errorCodes.conflict, message, [{ path: ['name'], message }]);
  }
}

export async function createAgent(
  db: Database,
  workspaceId: string,
  input: AgentCreateParsed,
  instanceServer?: InstanceServerCheck,
  secrets?: Secrets,
): Promise<Agent> {
  const id = newId('agent');
  assertRemoteShape(input);
  const { remote, ...fields } = input;
  const remoteCols = remoteColumns(secrets, id, remote) ?? {};
  return withUniqueName(input.name, () =>
    db.transaction(async (tx) => {
      await validateToolIds(tx, workspaceId, input.toolIds, [], instanceServer);
      const subAgentIds = await validateSubAgentIds(tx, workspaceId, id, input.subAgentIds);
      await validateProviderId(tx, workspaceId, input.providerId);
      const [row] = await tx
        .insert(agent)
        .values({ ...fields, ...remoteCols, subAgentIds, id, workspaceId })
        .returning();
      return toAgent(row!);
    }),
  );
}

export async function updateAgent(
  db: Database,
  workspaceId: string,
  id: string,
  patch: AgentUpdate,
  instanceServer?: InstanceServerCheck,
  secrets?: Secrets,
): Promise<Agent> {
  return withUniqueName(patch.name, () =>
    db.transaction(async (tx) => {
      const read = await findAgent(tx, workspaceId, id);
      if (!read) throw notFound('Agent', id);
      // Sub-agents are key-share locked first, as deleteAgent locks the deleted agent before the
      // agents listing it: locking this row before them could deadlock with a delete.
      await validateToolIds(tx, workspaceId, patch.toolIds, read.toolIds, instanceServer);
      const subAgentIds = patch.subAgentIds && (await validateSubAgentIds(tx, workspaceId, id, patch.subAgentIds, read.subAgentIds));
      await validateProviderId(tx, workspaceId, patch.providerId);
      // Then locked (`no key update`, as the UPDATE below would): stored headers are judged (kept
      // or refused for a new origin) against what is written.
      const [current] = await tx.select().from(agent).where(inWorkspace(workspaceId, id)).for('no key update');
      if (!current) throw notFound('Agent', id);
      const { remote: remoteInput, ...rest } = patch;
      const remoteCols = remoteColumns(secrets, id, remoteInput, current);
      assertRemoteShape({ ...current, ...rest, remote: remoteCols ? remoteCols.remote : current.remote }, patch);
      const { delegation, ...fields } = rest;
      const [row] = await tx
        .update(agent)
        .set({
          ...fields,
          ...remoteCols,
          subAgentIds,
          // Merged in the statement itself: two updates of different settings at once both land.
          ...(delegation ? { delegation: sql`${agent.delegation} || ${JSON.stringify(delegation)}::jsonb` } : {}),
          updatedAt: new Date(),
        })
        .where(inWorkspace(workspaceId, id))
        .returning();
      return toAgent(row!);
    }),
  );
}

/** Deleting an agent also takes it out of every other agent's sub-agent list, atomically. */
export async function deleteAgent(db: Database, workspaceId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(agent).where(inWorkspace(workspaceId, id)).returning({ id: agent.id });
    if (deleted.length === 0) throw notFound('Agent', id);
    await tx
      .update(agent)
      .set({ subAgentIds: sql`${agent.subAgentIds} - ${id}::text`, updatedAt: new Date() })
      .where(and(eq(agent.workspaceId, workspaceId), sql`${agent.subAgentIds} @> jsonb_build_array(${id}::text)`));
  });
}
