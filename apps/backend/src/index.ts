import { randomBytes } from 'node:crypto';
import { serve } from '@hono/node-server';
import { startRunRuntime } from './agent/runs/run-runtime';
import { createApp } from './app';
import { prepareDatabase } from './bootstrap';
import { loadConfig } from './config';

const config = loadConfig();
const database = await prepareDatabase(config.database);
const runtime = await startRunRuntime({ db: database.db, databaseKind: database.kind, redisUrl: config.redisUrl, timings: config.runTimings });
const app = createApp({
  db: database.db,
  databaseKind: database.kind,
  defaultModel: config.defaultModel,
  runs: runtime.runs,
  modelTimeouts: config.modelTimeouts,
  auth: { ...config.auth, secret: process.env.BATON_SECRET_KEY ?? randomBytes(32).toString('base64') },
});
const model = config.defaultModel.kind === 'demo' ? 'the offline demo model' : `${config.defaultModel.modelId} (OPENAI_API_KEY)`;
const events = config.redisUrl ? 'Redis' : 'in-process';

const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
  console.log(`Baton backend listening on http://localhost:${info.port} (database: ${database.kind}, default model: ${model}, run events: ${events})`);
});

// Running answers get a grace period to finish; what is still running then is stored as
// interrupted (never as "cancelled by user"). PGlite must be closed cleanly or its data
// directory may need recovery on the next start.
let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal}: shutting down (running answers get ${config.shutdownGraceMs / 1000} s to finish)`);
  server.close();
  await runtime.close(config.shutdownGraceMs);
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
