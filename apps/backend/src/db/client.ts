import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { DatabaseKind } from '@baton/schemas';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { logError } from '../error-text';
import { restrictDataDir, restrictDataDirRoot } from './data-dir-modes';
import * as schema from './schema';

/** The one query interface the app uses; node-postgres and PGlite both provide it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** `dataDir` undefined = in memory; `loadDataDir` seeds a fresh instance from a dump. */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 20 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', (err) => logError('postgres pool error', err));
    const db = drizzlePg({ client: pool, schema }) as unknown as Database;
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const { dataDir } = target;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    restrictDataDirRoot(dataDir);
  }
  const client = await PGlite.create(dataDir, target.loadDataDir ? { loadDataDir: target.loadDataDir } : {});
  // PGlite sets 0666 on what it creates, umask or not (data-dir-modes.ts).
  if (dataDir) restrictDataDir(dataDir);
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await client.close();
      if (dataDir) restrictDataDir(dataDir);
    },
  };
}
