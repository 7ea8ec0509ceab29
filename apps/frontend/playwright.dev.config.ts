import { defineConfig } from '@playwright/test';
import { backendServer, DIST_DIR, frontendEnv, frontendUrl, oidcServer, projects, shared } from './playwright.config';

/**
 * The specs that must also hold under `next dev` — what `pnpm dev` runs: React's
 * StrictMode (every effect twice, every render twice) and the dev server's proxy. Same
 * backend and browser as playwright.config.ts; the frontend is `next dev` with its own
 * build directory. Pages compile on their first visit: the "dev pages" project opens each once
 * before the owner setup (e2e/dev-pages.setup.ts), and the timeouts are longer. The owner
 * is created through the setup page here too (its own fresh backend), then the specs run
 * signed in.
 */
export default defineConfig({
  ...shared,
  // Its own folder: the production run's traces and screenshots of failed (and flaky) tests
  // stay for reading after this run, which empties its output folder when it starts.
  outputDir: './test-results/dev-artifacts',
  // agent-editor-guards: the Back guard pushes a history entry from an effect, which StrictMode runs twice.
  // silent-model: the dev server proxies /api with the same 30 s default as `next start`.
  // remote-images: the Content-Security-Policy of `next dev` (eval for React, the HMR websocket).
  projects: projects(['**/resume.spec.ts', '**/agent-editor-guards.spec.ts', '**/silent-model.spec.ts', '**/remote-images.spec.ts'], { compileFirst: true }),
  timeout: 120_000,
  expect: { timeout: 45_000 },
  webServer: [
    oidcServer,
    backendServer,
    {
      name: 'frontend (next dev)',
      command: `next dev -H 127.0.0.1 -p ${new URL(frontendUrl).port}`,
      url: `${frontendUrl}/api/health`,
      env: { ...frontendEnv, NEXT_DIST_DIR: `${DIST_DIR}-dev` },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
