import { and, asc, eq, sql } from 'drizzle-orm';
import { API_KEY_PREFIX, type ApiKey, type ApiKeyCreated } from '@baton/schemas';
import type { Database } from '../db/client';
import { preparedQuery } from '../db/prepared-query';
import { apiKey, workspaceMember } from '../db/schema';
import { notFound } from '../errors';
import { newId } from '../ids';
import type { WorkspaceAccess } from './members';
import { hashSecretToken, newSecretToken } from './secret-tokens';
import { logError } from '../error-text';

type ApiKeyRow = typeof apiKey.$inferSelect;

const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
/** last_used_at is a hint for people, not an audit log: write it at most once a minute per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function createApiKey(db: Database, access: WorkspaceAccess, name: string): Promise<ApiKeyCreated> {
  const key = newSecretToken(API_KEY_PREFIX);
  const [row] = await db
    .insert(apiKey)
    .values({
      id: newId('key'),
      workspaceId: access.workspaceId,
      userId: access.userId,
      name,
      keyHash: hashSecretToken(key),
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    })
    .returning();
  return { id: row!.id, name: row!.name, key, prefix: row!.prefix, createdAt: row!.createdAt.toISOString() };
}

/** A member sees their own keys; admins see every key of the workspace (to revoke a leaked one). */
export async function listApiKeys(db: Database, access: WorkspaceAccess, all: boolean): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKey)
    .where(all ? eq(apiKey.workspaceId, access.workspaceId) : and(eq(apiKey.workspaceId, access.workspaceId), eq(apiKey.userId, access.userId)))
    .orderBy(asc(apiKey.createdAt), asc(apiKey.id));
  return rows.map(toApiKey);
}

export async function revokeApiKey(db: Database, access: WorkspaceAccess, id: string, any: boolean): Promise<void> {
  const scope = any ? eq(apiKey.workspaceId, access.workspaceId) : and(eq(apiKey.workspaceId, access.workspaceId), eq(apiKey.userId, access.userId));
  const deleted = await db
    .delete(apiKey)
    .where(and(eq(apiKey.id, id), scope))
    .returning({ id: apiKey.id });
  if (deleted.length === 0) throw notFound('API key', id);
}

export interface ApiKeyPrincipal extends WorkspaceAccess {
  keyId: string;
  /** The key's name, which chats it starts are marked with (chat-origin.ts). */
  keyName: string;
  lastUsedAt: Date | null;
}

/**
 * The workspace access a key grants: its user's membership of its workspace, read in the
 * same query, so a key stops working the moment it is revoked or its user leaves.
 */
const keyByHash = preparedQuery((db) =>
  db
    .select({
      keyId: apiKey.id,
      keyName: apiKey.name,
      workspaceId: apiKey.workspaceId,
      userId: apiKey.userId,
      role: workspaceMember.role,
      lastUsedAt: apiKey.lastUsedAt,
    })
    .from(apiKey)
    .innerJoin(workspaceMember, and(eq(workspaceMember.workspaceId, apiKey.workspaceId), eq(workspaceMember.userId, apiKey.userId)))
    .where(eq(apiKey.keyHash, sql.placeholder('keyHash')))
    .limit(1)
    .prepare('verify_api_key'),
);

export async function verifyApiKey(db: Database, key: string): Promise<ApiKeyPrincipal | undefined> {
  if (!key.startsWith(API_KEY_PREFIX)) return undefined;
  const [row] = await keyByHash(db).execute({ keyHash: hashSecretToken(key) });
  return row;
}

/** Records when a key was last used (at most once a minute); not awaited: no request waits for this hint. */
export function noteApiKeyUse(db: Database, key: ApiKeyPrincipal): void {
  const now = Date.now();
  if (key.lastUsedAt && now - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  db.update(apiKey)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(apiKey.id, key.keyId))
    .catch((err: unknown) => logError('recording an API key use failed', err, { apiKeyId: key.keyId }));
}
