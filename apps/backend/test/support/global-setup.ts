import { randomBytes } from 'node:crypto';
import { writeFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { databaseUrlFor } from './database-url';
import { checkNoSecretInLogs } from './secret-log-check';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { kind: 'postgres'; templateUrl: string; templateName: string } | { kind: 'pglite'; dumpPath: string };
    /** Where the run's backend logs and the secrets its tests used are written (suite-secrets.ts). */
    suiteLog: { dir: string };
  }
}

/**
 * Migrates one template database per run; every test file then gets a fresh copy of it
 * (CREATE DATABASE … TEMPLATE on Postgres, a data-dir dump on PGlite), which is far
 * cheaper than migrating per file.
 */
export default async function setup(project: TestProject) {
  const logDir = await mkdtemp(join(tmpdir(), 'baton-suite-log-'));
  project.provide('suiteLog', { dir: logDir });
  const checkLogs = async () => {
    await checkNoSecretInLogs(logDir);
    await rm(logDir, { recursive: true, force: true });
  };
  const url = process.env.DATABASE_URL;
  if (url) {
    const templateName = `baton_test_tpl_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrlFor(url, templateName) });
    await runMigrations(handle);
    await handle.close();
    project.provide('testDatabase', { kind: 'postgres', templateUrl: url, templateName });
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await admin.end();
      await checkLogs();
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'baton-test-'));
  const handle = await openDatabase({ kind: 'pglite' });
  await runMigrations(handle);
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('none');
  const dumpPath = join(dir, 'migrated.tar');
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('testDatabase', { kind: 'pglite', dumpPath });
  return async () => {
    await rm(dir, { recursive: true, force: true });
    await checkLogs();
  };
}
