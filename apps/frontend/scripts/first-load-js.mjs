// Prints each App Router route's first-load JS (the scripts a first visit downloads),
// measured from the production build. `next build` 16 no longer prints these sizes.
// Usage: node scripts/first-load-js.mjs [distDir]   (default: .next)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';

const distDir = process.argv[2] ?? process.env.NEXT_DIST_DIR ?? '.next';
const buildManifest = JSON.parse(readFileSync(join(distDir, 'build-manifest.json'), 'utf8'));
const appPaths = JSON.parse(readFileSync(join(distDir, 'app-path-routes-manifest.json'), 'utf8'));

/** The chunks every page loads (framework, runtime): `rootMainFiles`. */
const shared = new Set(buildManifest.rootMainFiles);
const gzipped = new Map();
function size(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(distDir, file))).length);
  return gzipped.get(file);
}
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

const rows = [];
for (const [page, route] of Object.entries(appPaths)) {
  if (!page.endsWith('/page')) continue;
  const manifestFile = join(distDir, 'server', 'app', `${page}_client-reference-manifest.js`);
  if (!existsSync(manifestFile)) continue;
  const sandbox = { globalThis: {} };
  runInNewContext(readFileSync(manifestFile, 'utf8'), sandbox);
  const manifest = sandbox.globalThis.__RSC_MANIFEST[page];
  // The page, plus what its own and its ancestor segments add (layouts, not-found, error…).
  const files = new Set(shared);
  for (const [entry, chunks] of Object.entries(manifest.entryJSFiles)) {
    const segment = entry.replace(/^\[project\]\/apps\/frontend\/src\/app/, '');
    const dir = segment.slice(0, segment.lastIndexOf('/') + 1);
    const onThePath = page.startsWith(dir) && !segment.endsWith('/page');
    if (onThePath || segment === page) for (const c of chunks) files.add(c);
  }
  const total = [...files].reduce((sum, f) => sum + size(f), 0);
  rows.push({ route, total });
}

const sharedTotal = [...shared].reduce((sum, f) => sum + size(f), 0);
rows.sort((a, b) => a.route.localeCompare(b.route));
const width = Math.max(...rows.map((r) => r.route.length), 5);
console.log(`${'Route'.padEnd(width)}  First-load JS (gzip)`);
for (const r of rows) console.log(`${r.route.padEnd(width)}  ${kB(r.total)}`);
console.log(`${'shared by all'.padEnd(width)}  ${kB(sharedTotal)}`);
