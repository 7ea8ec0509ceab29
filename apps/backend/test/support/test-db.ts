import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client';
import { ensureDefaultWorkspace } from '../../src/services/workspaces';
import { databaseUrlFor } from './database-url';

/**
 * A fresh, migrated database with the default workspace: real Postgres when DATABASE_URL
 * is set (`url` then names it, for backend processes of a test), else PGlite.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const target = inject('testDatabase');
  if (target.kind === 'postgres') {
    const name = `baton_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: target.templateUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${target.templateName}`);
    } finally {
      await admin.end();
    }
    const url = databaseUrlFor(target.templateUrl, name);
    const handle = await openDatabase({ kind: 'postgres', url });
    await ensureDefaultWorkspace(handle.db);
    return {
      ...handle,
      url,
      async close() {
        await handle.close();
        const dropper = new pg.Client({ connectionString: target.templateUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const dump = new Blob([await readFile(target.dumpPath)]);
  const handle = await openDatabase({ kind: 'pglite', loadDataDir: dump });
  await ensureDefaultWorkspace(handle.db);
  return handle;
}
