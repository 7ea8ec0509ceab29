import { and, count, eq, getTableColumns, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { DEFAULT_DELEGATION_SETTINGS, errorCodes, mayChangeAgent, type Agent, type AgentCreateParsed, type AgentUpdate, type ListQuery } from '@baton/schemas';
import type { Database } from '../db/client';
import { preparedQuery } from '../db/prepared-query';
import { agent, chat, user } from '../db/schema';
import { type AgentActor, assertMayChangeAgent, authorNameOf } from './agent-permissions';
import { violatedUniqueConstraint } from '../db/unique-violation';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { type InstanceServerCheck, validateProviderId, validateSubAgentIds, validateToolIds } from './agent-validation';
import { keysetOrder, keysetWhere, toPage } from './pagination';
import type { Secrets } from '../secrets/secrets';
import { assertRemoteShape, remoteColumns } from './remote-agents';

export type AgentRow = typeof agent.$inferSelect;

/** An agent row with its author's name, as every read that answers an `Agent` selects it. */
export type AgentWithAuthor = AgentRow & { authorName: string | null };

const withAuthorName = { ...getTableColumns(agent), authorName: user.name };

/** `viewer`: whose `canEdit` / `canShare` the answer carries. */
export function toAgent(row: AgentWithAuthor, viewer: AgentActor): Agent {
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
    authorId: row.authorId,
    authorName: row.authorName,
    editableBy: row.editableBy,
    canEdit: mayChangeAgent(viewer, row, 'edit'),
    canDelete: mayChangeAgent(viewer, row, 'delete'),
    canShare: mayChangeAgent(viewer, row, 'share'),
    allowModelOverride: row.allowModelOverride,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const keyset = { at: agent.createdAt, id: agent.id, direction: 'asc' } as const;
const inWorkspace = (workspaceId: string, id: string) => and(eq(agent.workspaceId, workspaceId), eq(agent.id, id));

export async function listAgents(db: Database, viewer: AgentActor & { workspaceId: string }, query: ListQuery) {
  const rows = await db
    .select(withAuthorName)
    .from(agent)
    .leftJoin(user, eq(user.id, agent.authorId))
    .where(and(eq(agent.workspaceId, viewer.workspaceId), keysetWhere(keyset, query.cursor)))
    .orderBy(...keysetOrder(keyset))
    .limit(query.limit + 1);
  return toPage(
    rows,
    query,
    (r) => ({ at: r.createdAt, id: r.id }),
    (r) => toAgent(r, viewer),
  );
}

async function findAgentWithAuthor(db: Database, workspaceId: string, id: string): Promise<AgentWithAuthor | undefined> {
  const [row] = await db.select(withAuthorName).from(agent).leftJoin(user, eq(user.id, agent.authorId)).where(inWorkspace(workspaceId, id)).limit(1);
  return row;
}

const agentById = preparedQuery((db) =>
  db
    .select()
    .from(agent)
    .where(and(eq(agent.workspaceId, sql.placeholder('workspaceId')), eq(agent.id, sql.placeholder('id'))))
    .limit(1)
    .prepare('find_agent'),
);

export async function findAgent(db: Database, workspaceId: string, id: string): Promise<AgentRow | undefined> {
  const [row] = await agentById(db).execute({ workspaceId, id });
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

export async function getAgent(db: Database, viewer: AgentActor & { workspaceId: string }, id: string): Promise<Agent> {
  const row = await findAgentWithAuthor(db, viewer.workspaceId, id);
  if (!row) throw notFound('Agent', id);
  return toAgent(row, viewer);
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
  author: AgentActor & { workspaceId: string },
  input: AgentCreateParsed,
  instanceServer?: InstanceServerCheck,
  secrets?: Secrets,
): Promise<Agent> {
  const { workspaceId } = author;
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
        .values({ ...fields, ...remoteCols, subAgentIds, id, workspaceId, authorId: author.userId })
        .returning();
      return toAgent({ ...row!, authorName: await authorNameOf(tx, author.userId) }, author);
    }),
  );
}

/**
 * A partial update, by the author, an admin, or any member when the agent is shared (403 with
 * the reason otherwise; changing `editableBy` is the author's and admins' alone). Permission is
 * judged before anything is validated, and again on the locked row: a share withdrawn meanwhile
 * refuses the save.
 */
export async function updateAgent(
  db: Database,
  actor: AgentActor & { workspaceId: string },
  id: string,
  patch: AgentUpdate,
  instanceServer?: InstanceServerCheck,
  secrets?: Secrets,
): Promise<Agent> {
  const { workspaceId } = actor;
  const judge = async (tx: Database, row: AgentRow) => {
    await assertMayChangeAgent(tx, actor, row, 'edit');
    if (patch.editableBy !== undefined && patch.editableBy !== row.editableBy) await assertMayChangeAgent(tx, actor, row, 'share');
  };
  return withUniqueName(patch.name, () =>
    db.transaction(async (tx) => {
      const read = await findAgent(tx, workspaceId, id);
      if (!read) throw notFound('Agent', id);
      await judge(tx, read);
      // Sub-agents are key-share locked first, as deleteAgent locks the deleted agent before the
      // agents listing it: locking this row before them could deadlock with a delete.
      await validateToolIds(tx, workspaceId, patch.toolIds, read.toolIds, instanceServer);
      const subAgentIds = patch.subAgentIds && (await validateSubAgentIds(tx, workspaceId, id, patch.subAgentIds, read.subAgentIds));
      await validateProviderId(tx, workspaceId, patch.providerId);
      // Then locked (`no key update`, as the UPDATE below would): stored headers are judged (kept
      // or refused for a new origin) against what is written.
      const [current] = await tx.select().from(agent).where(inWorkspace(workspaceId, id)).for('no key update');
      if (!current) throw notFound('Agent', id);
      await judge(tx, current);
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
      return toAgent({ ...row!, authorName: await authorNameOf(tx, row!.authorId) }, actor);
    }),
  );
}

/**
 * Deletes an agent (its author or an admin only), taking it out of every other agent's
 * sub-agent list, atomically. Chats that used it stay, readable, with no agent (`agent_id` is
 * set null). When other people's chats use it, nothing is deleted without `force`: a
 * `409 agent_in_use` says how many, so the web app can ask first.
 */
export async function deleteAgent(db: Database, actor: AgentActor & { workspaceId: string }, id: string, { force = false } = {}): Promise<void> {
  const { workspaceId } = actor;
  await db.transaction(async (tx) => {
    // Locked before the agents listing it are updated, as updateAgent expects (see there).
    const [row] = await tx.select().from(agent).where(inWorkspace(workspaceId, id)).for('update');
    if (!row) throw notFound('Agent', id);
    await assertMayChangeAgent(tx, actor, row, 'delete');
    if (!force) {
      const otherChats = await countOtherPeoplesChats(tx, workspaceId, id, actor.userId);
      if (otherChats > 0) {
        const chats = otherChats === 1 ? '1 chat of another person uses' : `${otherChats} chats of other people use`;
        throw new AppError(
          409,
          errorCodes.agentInUse,
          `${chats} this agent: they stay readable, but cannot go on with it. Delete again with ?force=true to confirm`,
          { otherChats },
        );
      }
    }
    await tx.delete(agent).where(inWorkspace(workspaceId, id));
    await tx
      .update(agent)
      .set({ subAgentIds: sql`${agent.subAgentIds} - ${id}::text`, updatedAt: new Date() })
      .where(and(eq(agent.workspaceId, workspaceId), sql`${agent.subAgentIds} @> jsonb_build_array(${id}::text)`));
  });
}

/** Chats and sub-chats with this agent that belong to someone else than `userId` (or to nobody). */
async function countOtherPeoplesChats(db: Database, workspaceId: string, agentId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chat)
    .where(and(eq(chat.workspaceId, workspaceId), eq(chat.agentId, agentId), or(isNull(chat.userId), ne(chat.userId, userId))));
  return row?.n ?? 0;
}
