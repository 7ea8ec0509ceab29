import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';

// `next dev` writes route types into .next/dev/types with unused imports; when the app's
// tsconfig took them in, `next build` after `pnpm dev` failed its type check (TS6133 under
// noUnusedLocals). The build checks .next/types, which `next build` and `next typegen` write.
const appDir = join(dirname(fileURLToPath(import.meta.url)), '../..');
const probe = join(appDir, '.next/dev/types/tsconfig-probe.ts');
const createdDir = !existsSync(dirname(probe));
afterAll(() => rmSync(createdDir ? join(appDir, '.next/dev/types') : probe, { recursive: true, force: true }));

it('keeps the types next dev generates out of the type check of the build', () => {
  mkdirSync(dirname(probe), { recursive: true });
  writeFileSync(probe, "import type { NextRequest } from 'next/server';\nexport {};\n");
  const config = ts.readConfigFile(join(appDir, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, appDir);
  expect(parsed.fileNames.some((f) => f.includes('/.next/dev/'))).toBe(false);
  // The build's own route types stay checked.
  expect(parsed.raw.include).toContain('.next/types/**/*.ts');
});
