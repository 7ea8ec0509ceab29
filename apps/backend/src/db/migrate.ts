import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../package-paths';
import type { DatabaseHandle } from './client';

/** Applies the committed drizzle-kit migrations; a second run is a no-op. */
export async function runMigrations({ db, kind }: DatabaseHandle): Promise<void> {
  // Both migrators read the same SQL files; only the driver type differs.
  if (kind === 'postgres') await migratePg(db as never, { migrationsFolder });
  else await migratePglite(db as never, { migrationsFolder });
}
