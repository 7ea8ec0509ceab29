import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import devConfig from './playwright.dev.config';
import prodConfig, { projects, shared } from './playwright.config';

/**
 * Browser benchmarks (e2e/bench/*.bench.ts): figures written down in docs/benchmarks.md,
 * never part of `pnpm test` (the default configs only match *.spec.ts). Same servers as the
 * e2e suites: the production build by default, `next dev` with `BENCH_NEXT_DEV=1`.
 *
 *   pnpm --filter @baton/frontend bench:modal            # production build
 *   BENCH_NEXT_DEV=1 pnpm --filter @baton/frontend bench:modal
 *
 * On a machine with few cores the page's long tasks measure, in wall time, how long the renderer
 * waited for a core the bench's own servers were using. `BENCH_BROWSER_CPUS` gives Chromium
 * CPUs of its own (taskset's list, e.g. `1`); run the rest on the others, e.g.
 * `BENCH_BROWSER_CPUS=1 taskset -c 0 pnpm --filter @baton/frontend bench:modal`.
 * `BENCH_SERVERS_NICE=19` starts the servers (web app, backend, model) at that nice level
 * instead, so the browser is served first whenever both want a core: the closest a 2-core
 * machine gets to where they really run, the servers on another machine than the person's browser.
 */
const dev = process.env.BENCH_NEXT_DEV === '1';
const servers = [(dev ? devConfig.webServer : prodConfig.webServer) ?? []].flat();
const browserCpus = process.env.BENCH_BROWSER_CPUS;
const serversNice = process.env.BENCH_SERVERS_NICE;

export default defineConfig({
  ...shared,
  use: browserCpus
    ? {
        ...shared.use,
        launchOptions: { ...shared.use?.launchOptions, executablePath: fileURLToPath(new URL('./e2e/bench/pinned-chromium.sh', import.meta.url)) },
      }
    : shared.use,
  projects: projects(['**/bench/*.bench.ts'], { compileFirst: dev }),
  // A freezing tab is what this measures: give it room to freeze rather than time out (the
  // bench waits for the parent's continuation with its own, longer timeout).
  timeout: 20 * 60_000,
  // next dev compiles each page on its first visit, slowly on a loaded machine.
  expect: { timeout: dev ? 5 * 60_000 : 60_000 },
  // A loaded machine starts the servers slowly too.
  webServer: servers.map((server) => ({
    ...server,
    ...(serversNice && server.command ? { command: `nice -n ${Number(serversNice)} sh -c '${server.command}'` } : {}),
    timeout: Math.max(server.timeout ?? 0, 20 * 60_000),
  })),
});
