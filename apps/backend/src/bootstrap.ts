import { openDatabase, type DatabaseHandle, type DatabaseTarget } from './db/client';
import { runMigrations } from './db/migrate';
import { seedStarterAgents } from './services/starter-agents';
import { ensureDefaultWorkspace } from './services/workspaces';

/**
 * Opens the database, brings its schema up to date and makes sure the default workspace
 * exists (with the starter agents when it has none).
 */
export async function prepareDatabase(target: DatabaseTarget, { seed = true } = {}): Promise<DatabaseHandle> {
  const handle = await openDatabase(target);
  try {
    await runMigrations(handle);
    await ensureDefaultWorkspace(handle.db);
    if (seed) await seedStarterAgents(handle.db);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}
