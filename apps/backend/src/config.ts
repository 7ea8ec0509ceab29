import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultModelFromEnv, type DefaultModelConfig } from './agent/models';
import type { DatabaseTarget } from './db/client';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Config {
  port: number;
  database: DatabaseTarget;
  defaultModel: DefaultModelConfig;
}

/** Reads the environment once at start-up; everything else receives plain values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const database: DatabaseTarget = env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL }
    : { kind: 'pglite', dataDir: resolve(repoRoot, env.BATON_DATA_DIR ?? '.data', 'pglite') };
  return { port, database, defaultModel: defaultModelFromEnv(env) };
}
