import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the one data model and committed; the backend applies
// them at start-up on both PGlite and node-postgres.
export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/backend/src/db/schema.ts',
  out: './apps/backend/drizzle',
});
