import { serve } from '@hono/node-server';
import { createApp } from './app';
import { prepareDatabase } from './bootstrap';
import { loadConfig } from './config';

const config = loadConfig();
const database = await prepareDatabase(config.database);
const app = createApp({ db: database.db, databaseKind: database.kind, defaultModel: config.defaultModel });
const model = config.defaultModel.kind === 'demo' ? 'the offline demo model' : `${config.defaultModel.modelId} (OPENAI_API_KEY)`;

const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
  console.log(`Baton backend listening on http://localhost:${info.port} (database: ${database.kind}, default model: ${model})`);
});

// PGlite must be closed cleanly or its data directory may need recovery on next start.
async function shutdown(signal: string) {
  console.log(`${signal}: shutting down`);
  server.close();
  // Running turns store what they generated before the database closes.
  await app.deps.runs.stopAll();
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
