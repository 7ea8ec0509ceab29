import type { DatabaseKind } from '@baton/schemas';
import type { Database } from '../db/client';

/** What route modules are built from; tests build the app with their own database. */
export interface AppDeps {
  db: Database;
  databaseKind: DatabaseKind;
}
