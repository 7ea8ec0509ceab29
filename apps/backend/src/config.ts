import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from './agent/model-timeouts';
import { DEFAULT_PROVIDER_LIMITS, type ProviderLimits } from './agent/provider-limits';
import { MIN_MAX_TOOL_CALLS_PER_STEP } from './agent/tool-call-limit';
import { defaultModelFromEnv, type DefaultModelConfig } from './agent/models';
import { DEFAULT_RUN_TIMINGS, type RunTimings } from './agent/runs/run-maintenance';
import type { AuthSettings } from './auth/better-auth';
import { parseTrustedProxies } from './auth/client-ip';
import type { DatabaseTarget } from './db/client';
import { DEFAULT_STREAM_KEEPALIVE_MS } from './http/keep-alive';
import { MCP_CALL_TIMEOUT_MS } from './mcp/failures';
import { secretKeySourceFromEnv, type SecretKeySource } from './secrets/secret-key';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Config {
  /** The address the backend listens on: loopback unless the operator opens it (HOST). */
  host: string;
  port: number;
  database: DatabaseTarget;
  defaultModel: DefaultModelConfig;
  /** Unset: run events and Stop stay in this process (one backend process). */
  redisUrl?: string;
  modelTimeouts: ModelTimeouts;
  /** BATON_MCP_CALL_TIMEOUT_MS: how long one MCP tool call may take before the model gets an error result. */
  mcpCallTimeoutMs: number;
  /** What a model provider may send (BATON_MAX_TOOL_CALLS_PER_STEP, BATON_MAX_ANSWER_CHARS, BATON_MODEL_MAX_RESPONSE_BYTES, BATON_MODEL_MAX_EVENT_BYTES). */
  providerLimits: ProviderLimits;
  /** BATON_STREAM_KEEPALIVE_MS: an SSE comment this often while a stream is silent. */
  streamKeepAliveMs: number;
  runTimings: RunTimings;
  /** On SIGTERM, how long running answers may take to finish before they are interrupted. */
  shutdownGraceMs: number;
  /** BATON_SECRET_KEY, or `<data dir>/secret.key` (created on first start). */
  secretKey: SecretKeySource;
  /** BATON_ALLOW_PRIVATE_URLS: providers may be on loopback and private networks. */
  allowPrivateUrls: boolean;
  /** Accounts and sessions; the signing secret is derived from the secret key at start-up. */
  auth: Omit<AuthSettings, 'secret'>;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

function publicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.BATON_PUBLIC_URL;
  if (!raw) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new Error(`BATON_PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  return url.origin;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, what = 'whole number'): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive ${what}, got "${raw}"`);
  return value;
}

const positiveMs = (env: NodeJS.ProcessEnv, name: string, fallback: number) => positiveInt(env, name, fallback, 'number of milliseconds');

function providerLimits(env: NodeJS.ProcessEnv): ProviderLimits {
  const d = DEFAULT_PROVIDER_LIMITS;
  const maxToolCallsPerStep = positiveInt(env, 'BATON_MAX_TOOL_CALLS_PER_STEP', d.maxToolCallsPerStep);
  // A delegation batch (10 calls) has its own limit and must fit in a step.
  if (maxToolCallsPerStep < MIN_MAX_TOOL_CALLS_PER_STEP) {
    throw new Error(`BATON_MAX_TOOL_CALLS_PER_STEP must be at least ${MIN_MAX_TOOL_CALLS_PER_STEP}, got "${env.BATON_MAX_TOOL_CALLS_PER_STEP}"`);
  }
  return {
    maxToolCallsPerStep,
    maxAnswerChars: positiveInt(env, 'BATON_MAX_ANSWER_CHARS', d.maxAnswerChars),
    maxResponseBytes: positiveInt(env, 'BATON_MODEL_MAX_RESPONSE_BYTES', d.maxResponseBytes),
    maxEventBytes: positiveInt(env, 'BATON_MODEL_MAX_EVENT_BYTES', d.maxEventBytes),
  };
}

/** Reads the environment once at start-up; everything else receives plain values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const dataDir = resolve(repoRoot, env.BATON_DATA_DIR || '.data');
  const database: DatabaseTarget = env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') };
  return {
    host: env.HOST || '127.0.0.1',
    port,
    database,
    defaultModel: defaultModelFromEnv(env),
    redisUrl: env.REDIS_URL || undefined,
    modelTimeouts: {
      firstByteMs: positiveMs(env, 'BATON_MODEL_FIRST_BYTE_TIMEOUT_MS', DEFAULT_MODEL_TIMEOUTS.firstByteMs),
      idleMs: positiveMs(env, 'BATON_MODEL_IDLE_TIMEOUT_MS', DEFAULT_MODEL_TIMEOUTS.idleMs),
    },
    mcpCallTimeoutMs: positiveMs(env, 'BATON_MCP_CALL_TIMEOUT_MS', MCP_CALL_TIMEOUT_MS),
    providerLimits: providerLimits(env),
    streamKeepAliveMs: positiveMs(env, 'BATON_STREAM_KEEPALIVE_MS', DEFAULT_STREAM_KEEPALIVE_MS),
    runTimings: {
      heartbeatMs: positiveMs(env, 'BATON_RUN_HEARTBEAT_MS', DEFAULT_RUN_TIMINGS.heartbeatMs),
      staleAfterMs: positiveMs(env, 'BATON_RUN_STALE_AFTER_MS', DEFAULT_RUN_TIMINGS.staleAfterMs),
      sweepMs: positiveMs(env, 'BATON_RUN_SWEEP_MS', DEFAULT_RUN_TIMINGS.sweepMs),
    },
    shutdownGraceMs: positiveMs(env, 'BATON_SHUTDOWN_GRACE_MS', 10_000),
    secretKey: secretKeySourceFromEnv(env, resolve(dataDir, 'secret.key')),
    allowPrivateUrls: flag(env, 'BATON_ALLOW_PRIVATE_URLS'),
    auth: {
      publicUrl: publicUrl(env),
      openSignup: flag(env, 'BATON_OPEN_SIGNUP'),
      signInAttemptsPerMinute: positiveInt(env, 'BATON_SIGN_IN_ATTEMPTS_PER_MINUTE', 10),
      trustedProxies: parseTrustedProxies(env.BATON_TRUSTED_PROXIES),
    },
  };
}
