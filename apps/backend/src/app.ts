import { errorCodes } from '@baton/schemas';
import { Hono } from 'hono';
import { authRoutes } from './auth/auth-routes';
import { parseTrustedProxies } from './auth/client-ip';
import { type AuthSettings, createBetterAuth, DEFAULT_PUBLIC_URL } from './auth/better-auth';
import { authenticate } from './auth/principal';
import { SessionCache } from './auth/session-cache';
import { SsoSignUps } from './auth/sso';
import { type AppEnv, requireWorkspaceAccess } from './http/access';
import { limitBody } from './http/body-limit';
import { requestLog } from './http/request-log';
import { requestSpan } from './http/request-span';
import { errorBody, handleError, notFoundRoute } from './http/errors';
import { DEFAULT_STREAM_KEEPALIVE_MS } from './http/keep-alive';
import { DEFAULT_MODEL_TIMEOUTS } from './agent/model-timeouts';
import { DEFAULT_PROVIDER_LIMITS } from './agent/provider-limits';
import { cancelRemoteTasksOf } from './agent/remote-task-recovery';
import { continueReadyPausedAnswers, handOnAfterRecovery, handOnAfterRunEnd } from './agent/paused-answers';
import { logError } from './error-text';
import { RunRegistry } from './agent/runs/run-registry';
import { SnapshotWriter } from './agent/runs/snapshot-writer';
import { createOutbound } from './outbound/guarded-fetch';
import { InstanceMcpServers } from './mcp/instance-servers';
import { DEFAULT_FILE_LIMITS } from './services/files';
import { databaseFileStore } from './storage/file-store';
import { storablePathParams } from './http/validation';
import { accountRoutes, publicAccountRoutes } from './routes/account';
import { agentRoutes } from './routes/agents';
import { feedbackRoutes } from './routes/feedback';
import { apiKeyRoutes } from './routes/api-keys';
import { chatRunRoutes } from './routes/chat-runs';
import { delegationRoutes } from './routes/delegations';
import { approvalRoutes } from './routes/approvals';
import { chatStreamRoutes } from './routes/chat-stream';
import { chatRoutes } from './routes/chats';
import { chatExportRoutes, isChatImport } from './routes/chat-export';
import { chatShareRoutes, sharedRoutes, shareRoutes } from './routes/shares';
import type { AppDeps } from './routes/deps';
import { docsRoutes } from './routes/docs';
import { fileRoutes, isFileUpload } from './routes/files';
import { healthRoutes } from './routes/health';
import { imageRoutes } from './routes/images';
import { invitationRoutes } from './routes/invitations';
import { metricsRoutes } from './routes/metrics';
import { enableMetrics } from './ops/metrics';
import { mcpServerRoutes, workspaceToolRoutes } from './routes/mcp-servers';
import { memberRoutes } from './routes/members';
import { openAiRoutes } from './routes/openai';
import { a2aRoutes } from './routes/a2a';
import { providerRoutes } from './routes/providers';
import { catalogRoutes } from './routes/tools';
import { workspaceRoutes } from './routes/workspaces';

export const MAX_BODY_BYTES = 1024 * 1024;

type Defaulted = 'defaultModel' | 'runs' | 'modelTimeouts' | 'outbound' | 'snapshots' | 'streamKeepAliveMs' | 'providerLimits' | 'files' | 'instanceMcp';
export type CreateAppOptions = Omit<AppDeps, Defaulted | 'auth'> & Partial<Pick<AppDeps, Defaulted>> & { auth: AuthSettings };

/** The whole HTTP API, built from its dependencies so tests can run it on any database and model. */
export function createApp(options: CreateAppOptions) {
  const ssoSignUps = new SsoSignUps();
  const deps: AppDeps = {
    ...options,
    defaultModel: options.defaultModel ?? { kind: 'demo' },
    runs: options.runs ?? new RunRegistry(),
    modelTimeouts: options.modelTimeouts ?? DEFAULT_MODEL_TIMEOUTS,
    providerLimits: options.providerLimits ?? DEFAULT_PROVIDER_LIMITS,
    files: options.files ?? { store: databaseFileStore, limits: DEFAULT_FILE_LIMITS },
    streamKeepAliveMs: options.streamKeepAliveMs ?? DEFAULT_STREAM_KEEPALIVE_MS,
    snapshots: options.snapshots ?? new SnapshotWriter(options.db),
    // Safe by default: loopback and private networks only when the operator says so.
    outbound: options.outbound ?? createOutbound({ allowPrivateAddresses: false }),
    // The caller starts and stops them (index.ts: with the process); none unless BATON_MCP_CONFIG names some.
    instanceMcp: options.instanceMcp ?? InstanceMcpServers.none(),
    auth: { ...options.auth, betterAuth: createBetterAuth(options.db, options.auth, ssoSignUps), ssoSignUps },
  };
  // A run's end may let a paused answer go on: the parent's above an ended sub-chat, or its
  // own when it paused after its sub-chats had all ended (paused-answers.ts). Wired here, not
  // imported by the run loop, since continuing an answer starts a run in turn.
  deps.runs.onRunEnded(({ chat, status }) => handOnAfterRunEnd(deps, chat, status === 'awaiting_approval'));
  // A paused answer waiting on a sub-agent whose process died goes on once recovery ended it;
  // at start-up, one whose sub-agents ended during the last shutdown goes on too.
  deps.runs.onRecovered((runs, atStartup) => {
    handOnAfterRecovery(deps, runs);
    void cancelRemoteTasksOf(deps, runs);
    if (atStartup) void continueReadyPausedAnswers(deps).catch((err) => logError('continuing paused answers at start-up failed', err));
  });
  // Counted from now on in this process (the registry is the process's: ops/metrics.ts).
  if (deps.metricsToken) enableMetrics();
  const app = new Hono<AppEnv>();
  // Every request's log line and id, whichever route answers it (routes' own errors included).
  app.use('*', requestLog());
  // Its span, when tracing is on: what the request starts (a run) is its child.
  app.use('*', requestSpan());
  // Prometheus scrapes with BATON_METRICS_TOKEN; without it the path does not exist.
  app.route('/metrics', metricsRoutes(deps.metricsToken));
  // Public: the API reference (it reads the routes below when asked).
  app.route('/api', docsRoutes(app));
  const api = new Hono<AppEnv>();
  const jsonBodyLimit = limitBody(MAX_BODY_BYTES, (c) => c.json(errorBody(errorCodes.payloadTooLarge, 'the request body is over 1 MiB'), 413));
  // A file upload has its own limit (BATON_FILE_MAX_BYTES), checked once the caller is known; so has a chat import (MAX_IMPORT_BYTES).
  api.use('*', (c, next) => (isFileUpload(c.req.method, c.req.path) || isChatImport(c.req.method, c.req.path) ? next() : jsonBodyLimit(c, next)));
  api.use('*', storablePathParams);

  // Public: health, signing up and in, what a signed-out visitor needs to know.
  api.route('/health', healthRoutes(deps));
  const sessions = new SessionCache();
  const trustedProxies = deps.auth.trustedProxies ?? parseTrustedProxies(undefined);
  api.route(
    '/auth',
    authRoutes(deps.db, deps.databaseKind, deps.auth.betterAuth, sessions, {
      openSignup: deps.auth.openSignup,
      trustedProxies,
      mail: Boolean(deps.auth.mailer),
      sso: deps.auth.sso,
      ssoSignUps,
      secureCookies: (deps.auth.publicUrl ?? DEFAULT_PUBLIC_URL).startsWith('https:'),
    }),
  );
  api.route('/', publicAccountRoutes(deps));
  // Public: a chat shared by a link (the token is the credential).
  api.route('/shared', sharedRoutes(deps));

  // Everything below needs a session or an API key; a route handled above never gets here.
  api.use('*', authenticate(deps.db, deps.auth.betterAuth, sessions, { origins: [deps.auth.publicUrl ?? DEFAULT_PUBLIC_URL], proxies: trustedProxies }));
  api.route('/', accountRoutes(deps));
  api.route('/', catalogRoutes(deps));
  api.route('/image', imageRoutes(deps));
  api.route('/workspaces', workspaceRoutes(deps));
  // Only members reach a workspace; for anyone else it does not exist.
  api.use('/workspaces/:workspaceId/*', requireWorkspaceAccess(deps.db));
  api.route('/workspaces/:workspaceId/members', memberRoutes(deps));
  api.route('/workspaces/:workspaceId/invitations', invitationRoutes(deps));
  api.route('/workspaces/:workspaceId/api-keys', apiKeyRoutes(deps));
  api.route('/workspaces/:workspaceId/agents', agentRoutes(deps));
  api.route('/workspaces/:workspaceId/providers', providerRoutes(deps));
  api.route('/workspaces/:workspaceId/mcp-servers', mcpServerRoutes(deps));
  api.route('/workspaces/:workspaceId/tools', workspaceToolRoutes(deps));
  // Before chatRoutes: `POST …/chats/import` is not a chat id.
  api.route('/workspaces/:workspaceId/chats', chatExportRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', chatShareRoutes(deps));
  api.route('/workspaces/:workspaceId/shares', shareRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', chatRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', chatRunRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', delegationRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', approvalRoutes(deps));
  api.route('/workspaces/:workspaceId/chat', chatStreamRoutes(deps));
  api.route('/workspaces/:workspaceId', feedbackRoutes(deps));
  api.route('/workspaces/:workspaceId/files', fileRoutes(deps));

  app.route('/api', api);
  // OpenAI clients are pointed at <backend>/v1: its own auth (API keys only) and error shape.
  app.route('/v1', openAiRoutes(deps));
  // A2A clients are pointed at a published agent's card under /a2a: API keys only.
  app.route('/a2a', a2aRoutes(deps));
  app.onError(handleError);
  app.notFound(notFoundRoute);
  return Object.assign(app, { deps });
}
