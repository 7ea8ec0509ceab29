// The benchmark's database: a uniquely named database on the server of DATABASE_URL
// (dropped at the end), else a PGlite data directory in a temp dir (deleted at the end).
// Baton's own processes open it through their environment; the bench opens it itself only
// for the append figure, when no Baton process runs (PGlite allows one process at a time).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { prepareDatabase } from '../src/bootstrap';
import type { DatabaseHandle } from '../src/db/client';

export interface BenchDatabase {
  kind: 'pglite' | 'postgres';
  /** Human-readable: which database the figures come from. */
  label: string;
  /** What Baton's process gets in its environment. */
  env: { DATABASE_URL: string } | { BATON_DATA_DIR: string };
  /** Opens it in this process (migrated by Baton already). */
  open(): Promise<DatabaseHandle>;
  /** Drops the database / deletes the directory. */
  remove(): Promise<void>;
  /**
   * Postgres's count of `deadlock detected` in this database so far (pg_stat_database; a
   * process's counts are flushed at the latest when it exits). Undefined on PGlite, which
   * has one connection and cannot deadlock.
   */
  deadlocks(): Promise<number | undefined>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(`the benchmark only talks to loopback addresses; DATABASE_URL points at "${host}"`);
  }
}

async function admin<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  if (databaseUrl) {
    assertLoopback(databaseUrl);
    const name = `baton_bench_${randomBytes(5).toString('hex')}`;
    const version = await admin(databaseUrl, async (c) => {
      await c.query(`CREATE DATABASE ${name}`);
      return (await c.query('show server_version')).rows[0]?.server_version as string | undefined;
    });
    const url = withDatabase(databaseUrl, name);
    return {
      kind: 'postgres',
      label: `PostgreSQL ${version ?? '?'} (node-postgres, database ${name})`,
      env: { DATABASE_URL: url },
      open: () => prepareDatabase({ kind: 'postgres', url }, { seed: false }),
      remove: () => admin(databaseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
      deadlocks: () =>
        admin(databaseUrl, async (c) => Number((await c.query('select deadlocks from pg_stat_database where datname = $1', [name])).rows[0]?.deadlocks ?? 0)),
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'baton-bench-'));
  return {
    kind: 'pglite',
    label: `PGlite (embedded in Baton's process, data dir in ${tmpdir()})`,
    // Baton keeps its PGlite data in <BATON_DATA_DIR>/pglite.
    env: { BATON_DATA_DIR: dir },
    open: () => prepareDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') }, { seed: false }),
    remove: () => rm(dir, { recursive: true, force: true }),
    deadlocks: async () => undefined,
  };
}
