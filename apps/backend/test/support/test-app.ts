import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app';
import { parseTrustedProxies } from '../../src/auth/client-ip';
import type { ModelTimeouts } from '../../src/agent/model-timeouts';
import type { DefaultModelConfig } from '../../src/agent/models';
import { DEFAULT_PROVIDER_LIMITS, type ProviderLimits } from '../../src/agent/provider-limits';
import { RunRegistry } from '../../src/agent/runs/run-registry';
import type { InstanceMcpServers } from '../../src/mcp/instance-servers';
import { createOutbound } from '../../src/outbound/guarded-fetch';
import { Secrets } from '../../src/secrets/secrets';
import type { DatabaseHandle } from '../../src/db/client';
import * as schema from '../../src/db/schema';
import { findActiveRun } from '../../src/services/runs';
import { DEFAULT_FILE_LIMITS, type FileSettings } from '../../src/services/files';
import { databaseFileStore } from '../../src/storage/file-store';
import type { SsoSettings } from '../../src/auth/sso';
import { type MailSettings, Mailer } from '../../src/mail/mailer';
import { type Account, createApiKey, type Fetcher, signUp } from './accounts';
import { clientCredentials, withCredentials } from './credentials';
import { startRecordingDemoModel, type RecordingDemoModel } from './demo-model';
import { observeSecrets, rememberSecrets } from './suite-secrets';
import { createTestDatabase } from './test-db';

/** Fixed, so sessions made by one app instance of a test file stay valid in it. */
export const TEST_AUTH = { secret: 'baton-tests-secret-0123456789abcdef', openSignup: false, signInAttemptsPerMinute: 1_000 };

export interface TestApp {
  handle: DatabaseHandle;
  /** The demo model the app's default model points at (a real server on a loopback port). */
  demo: RecordingDemoModel;
  runs: RunRegistry;
  /** The app's secret key (a fresh one per test file), for reading what it stored. */
  secrets: Secrets;
  /** The app listening on a loopback port, for clients that need a real socket. */
  baseUrl: string;
  /** The owner account (the first sign-up, signed in), whose session every test client sends by default, and an API key of theirs for the default workspace. */
  owner: Account & { apiKey: string };
  /** In-process request, sent with the owner's session unless `headers` say otherwise (`cookie: ''` sends none). */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** In-process request with no credentials at all: for sign-up, sign-in and refusals. */
  anonymous: Fetcher;
  /** `fetch` over the socket with the owner's session (like `request`). */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** Whether the chat has a running run (the database's view, as every replica sees it). */
  isAnswering(chatId: string): Promise<boolean>;
  /** Every row of every table, for "a rejected request wrote nothing" checks. */
  snapshot(): Promise<string>;
  /** Where the app keeps uploaded files and their limits. */
  files: FileSettings;
}

// Read from the schema, so a table added later is covered by every "nothing written" check.
const allTables: PgTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable));

/** Registers a fresh database, demo model and app (also listening) for the calling test file. */
export interface TestAppOptions {
  demoDelayMs?: number;
  modelTimeouts?: ModelTimeouts;
  /** BATON_STREAM_KEEPALIVE_MS (default 15 s): tests of silent streams shorten it. */
  streamKeepAliveMs?: number;
  openSignup?: boolean;
  signInAttemptsPerMinute?: number;
  /** false: start with no account at all (a fresh instance); `owner` is then unset. */
  withOwner?: boolean;
  /** BATON_ALLOW_PRIVATE_URLS: needed by tests whose providers are servers on loopback. */
  allowPrivateUrls?: boolean;
  /** Another default model than the demo model (made when the app starts, e.g. a stub server's). */
  defaultModel?: () => Promise<DefaultModelConfig>;
  /** BATON_TRUSTED_PROXIES as written in the environment (default: loopback). */
  trustedProxies?: string;
  /** How long an MCP server may take to connect and list its tools (10 s by default). */
  mcpTimeoutMs?: number;
  /** BATON_MCP_CALL_TIMEOUT_MS: how long one MCP tool call may take. */
  mcpCallTimeoutMs?: number;
  /** BATON_A2A_TIMEOUT_MS: how long a remote A2A agent may stay silent. */
  a2aTimeoutMs?: number;
  /** What a provider may send, where a test shrinks a limit (the rest keep their defaults). */
  providerLimits?: Partial<ProviderLimits>;
  /** Another file store (S3) or limits than the database's and the defaults (made when the app starts). */
  files?: () => Promise<Partial<FileSettings>>;
  /** BATON_CORS_ORIGINS as parsed (none by default). */
  corsOrigins?: string[];
  /** The operator's MCP servers (BATON_MCP_CONFIG); the test file starts and stops them. */
  instanceMcp?: () => InstanceMcpServers;
  /** BATON_METRICS_TOKEN: GET /metrics answers with it (metrics are off without it). */
  metricsToken?: string;
  /** BATON_SMTP_URL / BATON_SMTP_FROM (made when the app starts, e.g. a test SMTP server's). */
  mail?: () => MailSettings;
  /** BATON_OIDC_* (made when the app starts, e.g. a test OIDC provider's). */
  sso?: () => SsoSettings;
  /** BATON_PUBLIC_URL (default: the app's own loopback address is not known in advance, so better-auth's default). */
  publicUrl?: string;
}

export function useTestApp({
  demoDelayMs = 1,
  modelTimeouts,
  streamKeepAliveMs,
  openSignup = false,
  signInAttemptsPerMinute = TEST_AUTH.signInAttemptsPerMinute,
  withOwner = true,
  allowPrivateUrls = false,
  defaultModel,
  trustedProxies,
  mcpTimeoutMs,
  mcpCallTimeoutMs,
  a2aTimeoutMs,
  providerLimits,
  files,
  corsOrigins,
  instanceMcp,
  metricsToken,
  mail,
  sso,
  publicUrl,
}: TestAppOptions = {}): TestApp {
  const ctx = {} as TestApp;
  let closeServer: () => Promise<void> = async () => {};
  let closeMailer: () => void = () => {};
  beforeAll(async () => {
    const handle = await createTestDatabase();
    ctx.demo = await startRecordingDemoModel({ delayMs: demoDelayMs });
    ctx.runs = new RunRegistry();
    ctx.secrets = Secrets.random();
    ctx.files = { store: databaseFileStore, limits: DEFAULT_FILE_LIMITS, ...(await files?.()) };
    const mailer = mail ? new Mailer(mail()) : undefined;
    closeMailer = () => mailer?.close();
    const app = createApp({
      db: handle.db,
      databaseKind: handle.kind,
      defaultModel: defaultModel ? await defaultModel() : { kind: 'demo', baseURL: ctx.demo.baseURL },
      runs: ctx.runs,
      secrets: ctx.secrets,
      outbound: createOutbound({ allowPrivateAddresses: allowPrivateUrls }),
      auth: {
        ...TEST_AUTH,
        openSignup,
        signInAttemptsPerMinute,
        trustedProxies: parseTrustedProxies(trustedProxies),
        mailer,
        sso: sso?.(),
        ...(publicUrl ? { publicUrl } : {}),
      },
      ...(modelTimeouts ? { modelTimeouts } : {}),
      ...(streamKeepAliveMs ? { streamKeepAliveMs } : {}),
      ...(mcpTimeoutMs ? { mcpTimeoutMs } : {}),
      ...(mcpCallTimeoutMs ? { mcpCallTimeoutMs } : {}),
      ...(a2aTimeoutMs ? { a2aTimeoutMs } : {}),
      providerLimits: { ...DEFAULT_PROVIDER_LIMITS, ...providerLimits },
      files: ctx.files,
      ...(corsOrigins ? { corsOrigins } : {}),
      ...(instanceMcp ? { instanceMcp: instanceMcp() } : {}),
      ...(metricsToken ? { metricsToken } : {}),
    });
    // Every request and answer passes the suite's secret list (suite-secrets.ts) on its way.
    rememberSecrets([TEST_AUTH.secret, metricsToken]);
    const appFetch = observeSecrets((request, env) => app.fetch(request, env as never));
    const appRequest = (path: string, init?: RequestInit) => appFetch(new Request(/^https?:\/\//.test(path) ? path : `http://localhost${path}`, init));
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: appFetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        ctx.baseUrl = `http://127.0.0.1:${info.port}`;
        resolve(s);
      });
    });
    closeServer = () => new Promise((resolve) => server.close(() => resolve()));
    ctx.handle = handle;
    ctx.anonymous = appRequest;
    if (withOwner) {
      const owner = await signUp(ctx.anonymous, { email: 'owner@baton.test', name: 'Owner' });
      ctx.owner = { ...owner, apiKey: (await createApiKey(ctx.anonymous, owner)).key };
      // Like a browser, test clients send the owner's session; API keys are tested where they matter.
      clientCredentials.headers = { cookie: ctx.owner.cookie };
    }
    ctx.request = (path, init = {}) => {
      const { json, ...rest } = init;
      const headers = withCredentials(rest.headers);
      // An empty value means "send no such header": a test of missing credentials.
      for (const [name, value] of [...headers]) if (value === '') headers.delete(name);
      if (json === undefined) return appRequest(path, { ...rest, headers });
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return appRequest(path, { ...rest, method: rest.method ?? 'POST', headers, body: JSON.stringify(json) });
    };
    ctx.fetch = (url, init = {}) => fetch(url, { ...init, headers: withCredentials(init.headers) });
    ctx.isAnswering = async (chatId) => Boolean(await findActiveRun(handle.db, chatId));
    ctx.snapshot = async () => {
      const dump = await Promise.all(
        allTables.map(async (table) => {
          const rows = await handle.db.select().from(table);
          return [getTableName(table), rows.map((row) => JSON.stringify(row)).sort()];
        }),
      );
      return JSON.stringify(Object.fromEntries(dump));
    };
  });
  afterAll(async () => {
    await ctx.runs?.drain(0);
    await closeServer();
    closeMailer();
    await ctx.demo?.close();
    await ctx.handle?.close();
  });
  return ctx;
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
