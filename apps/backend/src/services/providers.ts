import { and, eq, isNotNull } from 'drizzle-orm';
import { providerBaseUrlSchema, type ListQuery, type Provider, type ProviderCreateParsed, type ProviderUpdate } from '@baton/schemas';
import type { Database } from '../db/client';
import { provider } from '../db/schema';
import { notFound } from '../errors';
import { newId } from '../ids';
import { isEncryptedSecret, SecretUnreadableError, type Secrets } from '../secrets/secrets';
import { keysetOrder, keysetWhere, toPage } from './pagination';
import { assertSecretStaysHome } from './secret-origin';
import { sanitizeDeep } from './text-hygiene';

type ProviderRow = typeof provider.$inferSelect;

/**
 * A base URL stored before they were checked may hold credentials or a query string: the
 * API shows it without them (the row is not used until it is edited, see resolveModel).
 */
function shownBaseUrl(baseUrl: string): string {
  if (providerBaseUrlSchema.safeParse(baseUrl).success) return baseUrl;
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return '';
  }
}

/** The API never carries the key back: only whether one is stored. */
export function toProvider(row: ProviderRow): Provider {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    baseUrl: shownBaseUrl(row.baseUrl),
    hasApiKey: Boolean(row.apiKey),
    modelIds: row.modelIds,
    contextWindows: row.contextWindows,
    pdfInput: row.pdfInput,
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

/** The full row, encrypted key included: for the model runtime only, never for a response. */
export async function findProviderWithKey(db: Database, workspaceId: string, id: string) {
  const [row] = await db.select().from(provider).where(inWorkspace(workspaceId, id)).limit(1);
  return row;
}

export async function getProvider(db: Database, workspaceId: string, id: string): Promise<Provider> {
  const row = await findProviderWithKey(db, workspaceId, id);
  if (!row) throw notFound('Provider', id);
  return toProvider(row);
}

// The ciphertext is bound to its row: copied into another provider, it does not decrypt.
const keyContext = (providerId: string) => `provider.api_key:${providerId}`;

/**
 * The key as sent to the provider. A row written before keys were encrypted (and not yet
 * encrypted by start-up, say by an older replica during an upgrade) holds it as it is.
 */
export function readProviderApiKey(secrets: Secrets, row: Pick<ProviderRow, 'id' | 'apiKey'>): string | null {
  if (!row.apiKey) return null;
  return isEncryptedSecret(row.apiKey) ? secrets.decrypt(row.apiKey, keyContext(row.id)) : row.apiKey;
}

const encryptKey = (secrets: Secrets, providerId: string, apiKey: string | null) => (apiKey ? secrets.encrypt(apiKey, keyContext(providerId)) : null);

export async function createProvider(db: Database, secrets: Secrets, workspaceId: string, input: ProviderCreateParsed): Promise<Provider> {
  const id = newId('prov');
  const [row] = await db
    .insert(provider)
    .values({
      ...input,
      apiKey: encryptKey(secrets, id, input.apiKey),
      modelIds: sanitizeDeep(input.modelIds),
      contextWindows: sanitizeDeep(input.contextWindows),
      id,
      workspaceId,
    })
    .returning();
  return toProvider(row!);
}

/**
 * A new base URL on another origin keeps no stored key: the patch must carry a new key (or
 * `null`), else it is refused and writes nothing. Read and written under the row's lock, so a
 * key stored meanwhile is judged too.
 */
export async function updateProvider(db: Database, secrets: Secrets, workspaceId: string, id: string, patch: ProviderUpdate) {
  const { apiKey, ...rest } = patch;
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(provider).where(inWorkspace(workspaceId, id)).for('update');
    if (!current) throw notFound('Provider', id);
    assertSecretStaysHome({
      storedUrl: current.baseUrl,
      nextUrl: patch.baseUrl,
      hasStoredSecret: Boolean(current.apiKey),
      secretGiven: apiKey !== undefined,
      field: 'apiKey',
    });
    const [row] = await tx
      .update(provider)
      .set({
        ...rest,
        ...(apiKey === undefined ? {} : { apiKey: encryptKey(secrets, id, apiKey) }),
        modelIds: sanitizeDeep(patch.modelIds),
        contextWindows: sanitizeDeep(patch.contextWindows),
        updatedAt: new Date(),
      })
      .where(inWorkspace(workspaceId, id))
      .returning();
    return toProvider(row!);
  });
}

/**
 * Start-up: encrypts keys stored before encryption at rest (idempotent: encrypted values
 * are left alone, and a row changed meanwhile is skipped), and counts keys this server's
 * secret key cannot read, so a changed or lost key is noticed at once.
 */
export async function encryptStoredProviderKeys(db: Database, secrets: Secrets): Promise<{ encrypted: number; unreadable: number }> {
  const rows = await db.select({ id: provider.id, apiKey: provider.apiKey }).from(provider).where(isNotNull(provider.apiKey));
  let encrypted = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (!row.apiKey) continue;
    if (isEncryptedSecret(row.apiKey)) {
      try {
        readProviderApiKey(secrets, row);
      } catch (err) {
        if (!(err instanceof SecretUnreadableError)) throw err;
        unreadable++;
      }
      continue;
    }
    const updated = await db
      .update(provider)
      .set({ apiKey: encryptKey(secrets, row.id, row.apiKey) })
      .where(and(eq(provider.id, row.id), eq(provider.apiKey, row.apiKey)))
      .returning({ id: provider.id });
    encrypted += updated.length;
  }
  return { encrypted, unreadable };
}

export async function deleteProvider(db: Database, workspaceId: string, id: string): Promise<void> {
  const deleted = await db.delete(provider).where(inWorkspace(workspaceId, id)).returning({ id: provider.id });
  if (deleted.length === 0) throw notFound('Provider', id);
}
