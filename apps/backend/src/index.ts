import type { Server as HttpServer } from 'node:http';
import { serve } from '@hono/node-server';
import { startRunRuntime } from './agent/runs/run-runtime';
import { createApp } from './app';
import { prepareDatabase } from './bootstrap';
import { loadConfig } from './config';
import { logError } from './error-text';
import { InstanceMcpServers } from './mcp/instance-servers';
import { configureLogging, log } from './ops/logger';
import { startTracing, type Tracing } from './ops/tracing';
import { createOutbound } from './outbound/guarded-fetch';
import { loadSecretKey, type LoadedSecretKey } from './secrets/secret-key';
import { Secrets } from './secrets/secrets';
import { startFileSweeper } from './services/file-sweep';
import { databaseFileStore } from './storage/file-store';
import { createS3FileStore } from './storage/s3-store';
import { Mailer } from './mail/mailer';
import { SnapshotWriter } from './agent/runs/snapshot-writer';

// Whatever escapes is logged like every other error: without query parameters (a failed
// start-up write could otherwise print a provider key).
process.on('uncaughtException', (err) => {
  logError('uncaught error', err);
  process.exit(1);
});
process.on('unhandledRejection', (err) => {
  logError('unhandled rejection', err);
  process.exit(1);
});

// A wrong setting stops the start with what to fix, not a stack trace.
let config: ReturnType<typeof loadConfig>;
let secretKey: LoadedSecretKey;
let tracing: Tracing | undefined;
try {
  await configureLogging(process.env);
  // Before anything else runs: the first request and run already have spans (when OTEL_EXPORTER_OTLP_ENDPOINT is set).
  tracing = await startTracing(process.env);
  config = loadConfig();
  secretKey = loadSecretKey(config.secretKey);
} catch (err) {
  log.error({}, `Baton backend cannot start: ${(err as Error).message}`);
  process.exit(1);
}
reportSecretKey(secretKey, config.database.kind);
const secrets = new Secrets(secretKey.key);
const database = await prepareDatabase(config.database, { secrets });
const runtime = await startRunRuntime({ db: database.db, databaseKind: database.kind, redisUrl: config.redisUrl, timings: config.runTimings });
const outbound = createOutbound({ allowPrivateAddresses: config.allowPrivateUrls });
// S3 is the operator's own service: its endpoint may be on a private network (operator fetch).
const fileStore = config.files.s3 ? createS3FileStore(config.files.s3, outbound.operatorFetch) : databaseFileStore;
const fileSweeper = startFileSweeper(database.db, fileStore);
// The operator's stdio servers start with the backend (their failures show in the Tool servers
// list and are retried), so the first turn that uses one does not wait for npx to download it.
const instanceMcp = new InstanceMcpServers(config.mcpServers, outbound.operatorFetch);
instanceMcp.start();
const app = createApp({
  db: database.db,
  databaseKind: database.kind,
  defaultModel: config.defaultModel,
  runs: runtime.runs,
  modelTimeouts: config.modelTimeouts,
  mcpCallTimeoutMs: config.mcpCallTimeoutMs,
  a2aTimeoutMs: config.a2aTimeoutMs,
  instanceMcp,
  providerLimits: config.providerLimits,
  streamKeepAliveMs: config.streamKeepAliveMs,
  snapshots: new SnapshotWriter(database.db, config.runTimings.snapshotMs),
  secrets,
  outbound,
  files: { store: fileStore, limits: config.files.limits },
  corsOrigins: config.corsOrigins,
  metricsToken: config.metricsToken,
  // Session cookies are signed with a key derived from the one secret key (one thing to back up).
  auth: { ...config.auth, secret: secrets.derive('auth-signing').toString('base64'), mailer: config.mail ? new Mailer(config.mail) : undefined },
});
const model = config.defaultModel.kind === 'demo' ? 'the offline demo model' : `${config.defaultModel.modelId} (OPENAI_API_KEY)`;
const events = config.redisUrl ? 'Redis' : 'in-process';

const mcpServers = config.mcpServers.length > 0 ? `, ${config.mcpServers.length} MCP server(s) from BATON_MCP_CONFIG` : '';
const files = config.files.s3 ? `files in S3 bucket ${config.files.s3.bucket}` : 'files in the database';
const providers = config.allowPrivateUrls ? 'providers may use private addresses' : 'providers on public addresses only';
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const host = info.address.includes(':') ? `[${info.address}]` : info.address;
  log.info(
    { port: info.port, database: database.kind, runEvents: events },
    `Baton backend listening on http://${host}:${info.port} (database: ${database.kind}, default model: ${model}, run events: ${events}, ${providers}, ${files}${mcpServers})`,
  );
});

// The web app's /api proxy keeps its sockets to the backend open between requests. Node closes
// an idle one after 5 s by default, and a request the proxy sends on it at that moment fails
// with "socket hang up" (a 500 on the page: seen in the e2e suite on a reload). Idle sockets
// are kept longer than a proxy reuses them; server.close() still closes them at shutdown.
const http1 = server as HttpServer;
http1.keepAliveTimeout = 65_000;
http1.headersTimeout = 66_000;

function reportSecretKey({ source, created }: LoadedSecretKey, databaseKind: string) {
  if (source.kind === 'env') return log.info({}, 'secrets: using BATON_SECRET_KEY');
  log.info(
    {},
    created
      ? `secrets: generated a new secret key in ${source.path}. Back it up with the database: without it, stored API keys cannot be read`
      : `secrets: using the secret key in ${source.path}`,
  );
  if (databaseKind === 'postgres') {
    log.info({}, 'secrets: several backend replicas on one database must share one key: set the same BATON_SECRET_KEY on each');
  }
}

// Running answers get a grace period to finish; what is still running then is stored as
// interrupted (never as "cancelled by user"). PGlite must be closed cleanly or its data
// directory may need recovery on the next start.
let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info({ signal }, `${signal}: shutting down (running answers get ${config.shutdownGraceMs / 1000} s to finish)`);
  server.close();
  fileSweeper.stop();
  await runtime.close(config.shutdownGraceMs);
  // After the runs: a turn still answering may be calling one of them.
  await instanceMcp.close();
  await database.close();
  // The last runs' spans are sent before the process ends.
  await tracing?.shutdown().catch((err) => logError('sending the last spans failed', err));
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
