import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from './agent/model-timeouts';
import { defaultModelFromEnv, type DefaultModelConfig } from './agent/models';
import { DEFAULT_RUN_TIMINGS, type RunTimings } from './agent/runs/run-maintenance';
import type { DatabaseTarget } from './db/client';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Config {
  port: number;
  database: DatabaseTarget;
  defaultModel: DefaultModelConfig;
  /** Unset: run events and Stop stay in this process (one backend process). */
  redisUrl?: string;
  modelTimeouts: ModelTimeouts;
  runTimings: RunTimings;
  /** On SIGTERM, how long running answers may take to finish before they are interrupted. */
  shutdownGraceMs: number;
}

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive number of milliseconds, got "${raw}"`);
  return value;
}

/** Reads the environment once at start-up; everything else receives plain values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const database: DatabaseTarget = env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL }
    : { kind: 'pglite', dataDir: resolve(repoRoot, env.BATON_DATA_DIR ?? '.data', 'pglite') };
  return {
    port,
    database,
    defaultModel: defaultModelFromEnv(env),
    redisUrl: env.REDIS_URL || undefined,
    modelTimeouts: {
      firstByteMs: positiveMs(env, 'BATON_MODEL_FIRST_BYTE_TIMEOUT_MS', DEFAULT_MODEL_TIMEOUTS.firstByteMs),
      idleMs: positiveMs(env, 'BATON_MODEL_IDLE_TIMEOUT_MS', DEFAULT_MODEL_TIMEOUTS.idleMs),
    },
    runTimings: {
      heartbeatMs: positiveMs(env, 'BATON_RUN_HEARTBEAT_MS', DEFAULT_RUN_TIMINGS.heartbeatMs),
      staleAfterMs: positiveMs(env, 'BATON_RUN_STALE_AFTER_MS', DEFAULT_RUN_TIMINGS.staleAfterMs),
      sweepMs: positiveMs(env, 'BATON_RUN_SWEEP_MS', DEFAULT_RUN_TIMINGS.sweepMs),
    },
    shutdownGraceMs: positiveMs(env, 'BATON_SHUTDOWN_GRACE_MS', 10_000),
  };
}
