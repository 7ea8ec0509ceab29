import { openDatabase, type DatabaseHandle, type DatabaseTarget } from './db/client';
import { runMigrations } from './db/migrate';
import { ensureDefaultWorkspace } from './services/workspaces';

/** Opens the database, brings its schema up to date and makes sure the default workspace exists. */
export async function prepareDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const handle = await openDatabase(target);
  try {
    await runMigrations(handle);
    await ensureDefaultWorkspace(handle.db);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}
