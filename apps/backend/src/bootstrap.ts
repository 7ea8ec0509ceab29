import type pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { openDatabase, type Database, type DatabaseHandle, type DatabaseTarget } from './db/client';
import { runMigrations } from './db/migrate';
import * as schema from './db/schema';
import type { Secrets } from './secrets/secrets';
import { encryptStoredProviderKeys } from './services/providers';
import { seedStarterAgents } from './services/starter-agents';
import { ensureDefaultWorkspace } from './services/workspaces';
import { log } from './ops/logger';

/** Any constant: the advisory lock that makes replicas starting together take turns. */
const STARTUP_LOCK = 7_311_204;

/**
 * Runs start-up work on Postgres under an advisory lock, on one connection: several
 * replicas starting at once would otherwise race to migrate and to seed the starter
 * agents twice. PGlite has one process by construction.
 */
async function underStartupLock(handle: DatabaseHandle, work: (h: DatabaseHandle) => Promise<void>): Promise<void> {
  if (handle.kind !== 'postgres') return work(handle);
  const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    const db = drizzlePg({ client, schema }) as unknown as Database;
    await work({ ...handle, db });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
    client.release();
  }
}

function reportStoredKeys({ encrypted, unreadable }: { encrypted: number; unreadable: number }) {
  if (encrypted > 0) log.info({ encrypted }, `secrets: encrypted ${encrypted} provider API key(s) stored before encryption at rest`);
  if (unreadable > 0) {
    log.warn(
      { unreadable },
      `secrets: ${unreadable} stored provider API key(s) cannot be decrypted with this secret key — was BATON_SECRET_KEY changed, ` +
        'or the data directory’s secret.key lost? Restore the old key, or enter those keys again.',
    );
  }
}

/**
 * Opens the database, brings its schema up to date and makes sure the default workspace
 * exists (with the starter agents when it has none). With `secrets`, provider keys still
 * stored in plain text are encrypted.
 */
export async function prepareDatabase(target: DatabaseTarget, { seed = true, secrets }: { seed?: boolean; secrets?: Secrets } = {}): Promise<DatabaseHandle> {
  const handle = await openDatabase(target);
  try {
    await underStartupLock(handle, async (locked) => {
      await runMigrations(locked);
      await ensureDefaultWorkspace(locked.db);
      if (seed) await seedStarterAgents(locked.db);
      if (secrets) reportStoredKeys(await encryptStoredProviderKeys(locked.db, secrets));
    });
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}
