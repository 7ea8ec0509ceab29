import { and, eq } from 'drizzle-orm';
import type { ListQuery, Provider, ProviderCreateParsed, ProviderUpdate } from '@baton/schemas';
import type { Database } from '../db/client';
import { provider } from '../db/schema';
import { notFound } from '../errors';
import { newId } from '../ids';
import { keysetOrder, keysetWhere, toPage } from './pagination';
import { sanitizeDeep } from './text-hygiene';

type ProviderRow = typeof provider.$inferSelect;

/** The API never carries the key back: only whether one is stored. */
export function toProvider(row: ProviderRow): Provider {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    baseUrl: row.baseUrl,
    hasApiKey: Boolean(row.apiKey),
    modelIds: row.modelIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const keyset = { at: provider.createdAt, id: provider.id, direction: 'asc' } as const;
const inWorkspace = (workspaceId: string, id: string) => and(eq(provider.workspaceId, workspaceId), eq(provider.id, id));

export async function listProviders(db: Database, workspaceId: string, query: ListQuery) {
  const rows = await db
    .select()
    .from(provider)
    .where(and(eq(provider.workspaceId, workspaceId), keysetWhere(keyset, query.cursor)))
    .orderBy(...keysetOrder(keyset))
    .limit(query.limit + 1);
  return toPage(rows, query, (r) => ({ at: r.createdAt, id: r.id }), toProvider);
}

/** The full row, key included: for the model runtime only, never for a response. */
export async function findProviderWithKey(db: Database, workspaceId: string, id: string) {
  const [row] = await db.select().from(provider).where(inWorkspace(workspaceId, id)).limit(1);
  return row;
}

export async function getProvider(db: Database, workspaceId: string, id: string): Promise<Provider> {
  const row = await findProviderWithKey(db, workspaceId, id);
  if (!row) throw notFound('Provider', id);
  return toProvider(row);
}

export async function createProvider(
  db: Database,
  workspaceId: string,
  input: ProviderCreateParsed,
): Promise<Provider> {
  const [row] = await db
    .insert(provider)
    .values({ ...input, modelIds: sanitizeDeep(input.modelIds), id: newId('prov'), workspaceId })
    .returning();
  return toProvider(row!);
}

export async function updateProvider(db: Database, workspaceId: string, id: string, patch: ProviderUpdate) {
  const [row] = await db
    .update(provider)
    .set({ ...patch, modelIds: sanitizeDeep(patch.modelIds), updatedAt: new Date() })
    .where(inWorkspace(workspaceId, id))
    .returning();
  if (!row) throw notFound('Provider', id);
  return toProvider(row);
}

export async function deleteProvider(db: Database, workspaceId: string, id: string): Promise<void> {
  const deleted = await db.delete(provider).where(inWorkspace(workspaceId, id)).returning({ id: provider.id });
  if (deleted.length === 0) throw notFound('Provider', id);
}
