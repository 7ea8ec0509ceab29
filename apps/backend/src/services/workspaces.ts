import { and, eq } from 'drizzle-orm';
import { DEFAULT_WORKSPACE_ID, type ListQuery, type Workspace, type WorkspaceCreate, type WorkspaceRole } from '@baton/schemas';
import type { Database } from '../db/client';
import { workspace, workspaceMember } from '../db/schema';
import { notFound } from '../errors';
import { newId } from '../ids';
import { addMember } from './members';
import { keysetOrder, keysetWhere, toPage } from './pagination';
import { seedStarterAgents } from './starter-agents';

type WorkspaceRow = typeof workspace.$inferSelect;

export function toWorkspace(row: WorkspaceRow, role: WorkspaceRole): Workspace {
  return { id: row.id, name: row.name, role, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

const keyset = { at: workspace.createdAt, id: workspace.id, direction: 'asc' } as const;

/** The workspaces a person belongs to (`only`: the one an API key reaches). */
export async function listWorkspaces(db: Database, userId: string, query: ListQuery, only?: string) {
  const rows = await db
    .select({ workspace, role: workspaceMember.role })
    .from(workspace)
    .innerJoin(workspaceMember, and(eq(workspaceMember.workspaceId, workspace.id), eq(workspaceMember.userId, userId)))
    .where(and(only ? eq(workspace.id, only) : undefined, keysetWhere(keyset, query.cursor)))
    .orderBy(...keysetOrder(keyset))
    .limit(query.limit + 1);
  return toPage(
    rows,
    query,
    (r) => ({ at: r.workspace.createdAt, id: r.workspace.id }),
    (r) => toWorkspace(r.workspace, r.role),
  );
}

/** A new workspace owned by its creator, with the starter agents to try delegation at once. */
export async function createWorkspace(db: Database, input: WorkspaceCreate, ownerId: string): Promise<Workspace> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(workspace)
      .values({ id: newId('ws'), name: input.name })
      .returning();
    await addMember(tx, row!.id, ownerId, 'owner');
    await seedStarterAgents(tx, row!.id, ownerId);
    return toWorkspace(row!, 'owner');
  });
}

export const workspaceNotFound = (id: string) => notFound('Workspace', id);

export async function ensureDefaultWorkspace(db: Database): Promise<void> {
  await db.insert(workspace).values({ id: DEFAULT_WORKSPACE_ID, name: 'Default' }).onConflictDoNothing();
}
