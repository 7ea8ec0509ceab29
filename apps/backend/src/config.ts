import { resolve } from 'node:path';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from './agent/model-timeouts';
import { DEFAULT_PROVIDER_LIMITS, type ProviderLimits } from './agent/provider-limits';
import { MIN_MAX_TOOL_CALLS_PER_STEP } from './agent/tool-call-limit';
import { defaultModelFromEnv, type DefaultModelConfig } from './agent/models';
import { DEFAULT_RUN_TIMINGS, type RunTimings } from './agent/runs/run-maintenance';
import type { AuthSettings } from './auth/better-auth';
import { parseTrustedProxies } from './auth/client-ip';
import { ssoSettingsFromEnv } from './auth/sso';
import { type MailSettings, mailSettingsFromEnv } from './mail/mailer';
import type { DatabaseTarget } from './db/client';
import { parseCorsOrigins } from './http/cors';
import { repoRoot } from './package-paths';
import { DEFAULT_STREAM_KEEPALIVE_MS } from './http/keep-alive';
import { MCP_CALL_TIMEOUT_MS } from './mcp/failures';
import { A2A_IDLE_TIMEOUT_MS } from './a2a-client/connect';
import { type InstanceMcpEntry, loadInstanceMcpConfig } from './mcp/instance-config';
import { secretKeySourceFromEnv, type SecretKeySource } from './secrets/secret-key';
import { DEFAULT_FILE_LIMITS, type FileLimits } from './services/files';
import type { S3Settings } from './storage/s3-store';
import { FILE_MEDIA_TYPES, type FileMediaType } from '@baton/schemas';

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
  /** BATON_A2A_TIMEOUT_MS: how long a remote A2A agent may send nothing (while no person is asked) before its task fails. */
  a2aTimeoutMs: number;
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
  /** Accounts and sessions; the signing secret is derived from the secret key at start-up, the mailer made from `mail`. */
  auth: Omit<AuthSettings, 'secret' | 'mailer'>;
  /** BATON_SMTP_URL and BATON_SMTP_FROM: password reset mails and emailed invitations (none when unset). */
  mail?: MailSettings;
  /** Uploads: what they may be (BATON_FILE_MAX_BYTES, BATON_FILE_TYPES), and S3 storage when BATON_S3_* says so (else the database). */
  files: { limits: FileLimits; s3?: S3Settings };
  /** BATON_CORS_ORIGINS: browser origins that may call /v1 (none by default). */
  corsOrigins: string[];
  /** BATON_MCP_CONFIG: the operator's MCP servers (a Claude Desktop / Cursor `mcpServers` file), offered to every workspace. */
  mcpServers: InstanceMcpEntry[];
  /** BATON_METRICS_TOKEN: Prometheus metrics at GET /metrics for a scraper sending it as a bearer token (none when unset). */
  metricsToken?: string;
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

/** A file's bytes are held in memory while checked, and a bytea value can hold at most 1 GiB. */
const MAX_FILE_BYTES_LIMIT = 1024 ** 3;

function fileLimits(env: NodeJS.ProcessEnv): FileLimits {
  const maxBytes = positiveInt(env, 'BATON_FILE_MAX_BYTES', DEFAULT_FILE_LIMITS.maxBytes, 'number of bytes');
  if (maxBytes > MAX_FILE_BYTES_LIMIT)
    throw new Error(`BATON_FILE_MAX_BYTES must be at most ${MAX_FILE_BYTES_LIMIT} (1 GiB), got "${env.BATON_FILE_MAX_BYTES}"`);
  const listed = (env.BATON_FILE_TYPES ?? '').split(/[\s,]+/).filter(Boolean);
  for (const type of listed) {
    if (!FILE_MEDIA_TYPES.includes(type as FileMediaType)) {
      throw new Error(`BATON_FILE_TYPES: "${type}" is not a type Baton can accept (${FILE_MEDIA_TYPES.join(', ')})`);
    }
  }
  return {
    maxBytes,
    mediaTypes: listed.length > 0 ? FILE_MEDIA_TYPES.filter((t) => listed.includes(t)) : DEFAULT_FILE_LIMITS.mediaTypes,
    maxPerMessage: positiveInt(env, 'BATON_FILE_MAX_PER_MESSAGE', DEFAULT_FILE_LIMITS.maxPerMessage),
  };
}

/** S3-compatible storage for files when any BATON_S3_* is set; then bucket and keys are required. */
function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const names = [
    'BATON_S3_ENDPOINT',
    'BATON_S3_BUCKET',
    'BATON_S3_ACCESS_KEY_ID',
    'BATON_S3_SECRET_ACCESS_KEY',
    'BATON_S3_REGION',
    'BATON_S3_FORCE_PATH_STYLE',
  ];
  if (!names.some((name) => env[name])) return undefined;
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`${name} must be set when S3 storage is configured (BATON_S3_*)`);
    return value;
  };
  const region = env.BATON_S3_REGION?.trim() || 'us-east-1';
  const endpoint = env.BATON_S3_ENDPOINT?.trim() || `https://s3.${region}.amazonaws.com`;
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.search) {
    throw new Error(`BATON_S3_ENDPOINT must be an http(s) URL without credentials or query, got "${endpoint}"`);
  }
  return {
    endpoint,
    bucket: required('BATON_S3_BUCKET'),
    accessKeyId: required('BATON_S3_ACCESS_KEY_ID'),
    secretAccessKey: required('BATON_S3_SECRET_ACCESS_KEY'),
    region,
    forcePathStyle: flag(env, 'BATON_S3_FORCE_PATH_STYLE'),
  };
}

/** A guessable token would open the metrics to anyone: at least 16 characters, like any bearer secret. */
function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.BATON_METRICS_TOKEN?.trim();
  if (!token) return undefined;
  if (token.length < 16 || /\s/.test(token)) throw new Error('BATON_METRICS_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 24`)');
  return token;
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
    a2aTimeoutMs: positiveMs(env, 'BATON_A2A_TIMEOUT_MS', A2A_IDLE_TIMEOUT_MS),
    providerLimits: providerLimits(env),
    streamKeepAliveMs: positiveMs(env, 'BATON_STREAM_KEEPALIVE_MS', DEFAULT_STREAM_KEEPALIVE_MS),
    runTimings: {
      heartbeatMs: positiveMs(env, 'BATON_RUN_HEARTBEAT_MS', DEFAULT_RUN_TIMINGS.heartbeatMs),
      staleAfterMs: positiveMs(env, 'BATON_RUN_STALE_AFTER_MS', DEFAULT_RUN_TIMINGS.staleAfterMs),
      sweepMs: positiveMs(env, 'BATON_RUN_SWEEP_MS', DEFAULT_RUN_TIMINGS.sweepMs),
      snapshotMs: positiveMs(env, 'BATON_RUN_SNAPSHOT_MS', DEFAULT_RUN_TIMINGS.snapshotMs),
    },
    shutdownGraceMs: positiveMs(env, 'BATON_SHUTDOWN_GRACE_MS', 10_000),
    secretKey: secretKeySourceFromEnv(env, resolve(dataDir, 'secret.key')),
    allowPrivateUrls: flag(env, 'BATON_ALLOW_PRIVATE_URLS'),
    auth: {
      publicUrl: publicUrl(env),
      openSignup: flag(env, 'BATON_OPEN_SIGNUP'),
      signInAttemptsPerMinute: positiveInt(env, 'BATON_SIGN_IN_ATTEMPTS_PER_MINUTE', 10),
      trustedProxies: parseTrustedProxies(env.BATON_TRUSTED_PROXIES),
      sso: ssoSettingsFromEnv(env),
    },
    mail: mailSettingsFromEnv(env),
    files: { limits: fileLimits(env), s3: s3Settings(env) },
    corsOrigins: parseCorsOrigins(env.BATON_CORS_ORIGINS),
    // A relative path is read from the repository's root, like BATON_DATA_DIR.
    mcpServers: env.BATON_MCP_CONFIG ? loadInstanceMcpConfig(resolve(repoRoot, env.BATON_MCP_CONFIG)) : [],
    metricsToken: metricsToken(env),
  };
}
