import { fileURLToPath } from 'node:url';

// This module sits directly in src/, and the bundle (dist/index.js, built by scripts/build.mjs)
// directly in dist/: from both, the backend's folder (apps/backend) is one level up. What the
// backend reads at run time is found from here, so it resolves the same under tsx, Vitest and
// in the image.

/** The repository's root (`/app` in the image): where `.data` lives and relative paths in settings start. */
export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The committed drizzle-kit migrations, applied at every start. */
export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));
