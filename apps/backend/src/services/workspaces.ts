import { and, eq } from 'drizzle-orm';
import { DEFAULT_WORKSPACE_ID, type ListQuery, type Workspace, type WorkspaceCreate } from '@baton/schemas';
import type { Database } from '../db/client';
import { workspace } from '../db/schema';
import { notFound } from '../errors';
import { newId } from '../ids';
import { keysetOrder, keysetWhere, toPage } from './pagination';

type WorkspaceRow = typeof workspace.$inferSelect;

export function toWorkspace(row: WorkspaceRow): Workspace {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

const keyset = { at: workspace.createdAt, id: workspace.id, direction: 'asc' } as const;

export async function listWorkspaces(db: Database, query: ListQuery) {
  const rows = await db
    .select()
    .from(workspace)
    .where(keysetWhere(keyset, query.cursor))
    .orderBy(...keysetOrder(keyset))
    .limit(query.limit + 1);
  return toPage(rows, query, (r) => ({ at: r.createdAt, id: r.id }), toWorkspace);
}

export async function createWorkspace(db: Database, input: WorkspaceCreate): Promise<Workspace> {
  const [row] = await db.insert(workspace).values({ id: newId('ws'), name: input.name }).returning();
  return toWorkspace(row!);
}

/** Throws 404 unless the workspace exists; every workspace-scoped route starts here. */
export async function requireWorkspace(db: Database, id: string): Promise<WorkspaceRow> {
  const [row] = await db.select().from(workspace).where(and(eq(workspace.id, id))).limit(1);
  if (!row) throw notFound('Workspace', id);
  return row;
}

/**
 * `requireWorkspace` for the hot path, remembering ids it has seen: workspaces are never
 * deleted through the API, so a known id stays valid and costs no query (time to first
 * token starts with this check).
 */
export function workspaceGuard(db: Database): (id: string) => Promise<void> {
  const known = new Set<string>();
  return async (id) => {
    if (known.has(id)) return;
    await requireWorkspace(db, id);
    known.add(id);
  };
}

export async function ensureDefaultWorkspace(db: Database): Promise<void> {
  await db.insert(workspace).values({ id: DEFAULT_WORKSPACE_ID, name: 'Default' }).onConflictDoNothing();
}
