// Builds the backend for production: one ES module, dist/index.js, that plain `node` runs (no
// tsx, no TypeScript at run time). The workspace packages (@baton/schemas, @baton/delegation,
// @baton/demo-llm), TypeScript sources, are bundled in; every npm package stays an import from
// node_modules, so the production install (`pnpm deploy --prod`, the Dockerfile) is what runs.
// Next to the bundle: the PDF worker (started by its file name, services/pdf-text.ts). The
// migrations are read from ../drizzle (src/package-paths.ts), as from the sources.
//
// Fails when the bundle would import a package the production install lacks: a dependency of
// a workspace package that the backend does not declare itself, or a development dependency
// (only a dynamic import of one is allowed: pino-pretty, for BATON_LOG_FORMAT=pretty).
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const dir = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
const dependencies = new Set(Object.keys(pkg.dependencies ?? {}));
const devDependencies = new Set(Object.keys(pkg.devDependencies ?? {}));
const builtins = new Set(builtinModules);

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** @type {import('esbuild').Plugin} */
const productionImports = {
  name: 'production-imports',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
      const name = packageName(args.path);
      if (name.startsWith('@baton/')) return undefined; // bundled
      if (dependencies.has(name)) return { external: true };
      if (devDependencies.has(name) && args.kind === 'dynamic-import') return { external: true };
      return { errors: [{ text: `${args.path} (imported by ${args.importer}) is not a production dependency of @baton/backend: add it to "dependencies"` }] };
    });
  },
};

const out = new URL('dist/', dir);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [new URL('src/index.ts', dir).pathname],
  outfile: new URL('index.js', out).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Error and class names stay readable in logs.
  keepNames: true,
  plugins: [productionImports],
  logLevel: 'warning',
});
copyFileSync(new URL('src/services/pdf-text-worker.mjs', dir), new URL('pdf-text-worker.mjs', out));
console.log(`built ${new URL('index.js', out).pathname}`);
