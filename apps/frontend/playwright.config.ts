import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against the real backend and a production build of the frontend.
 *
 * - backend: `node --import tsx src/index.ts` on :3101 with a fresh embedded database
 *   (PGlite in a new temp dir), or the Postgres in DATABASE_URL when that is set;
 * - frontend: `next build` into .next-e2e (a regular build in .next stays untouched),
 *   then `next start` on :3100 with /api proxied to the backend.
 */
// Overridable so two suites (say, two engineers' worktrees) can run side by side.
const BACKEND_PORT = Number(process.env.E2E_BACKEND_PORT ?? 3101);
const FRONTEND_PORT = Number(process.env.E2E_FRONTEND_PORT ?? 3100);
const DIST_DIR = process.env.E2E_DIST_DIR ?? '.next-e2e';
const frontendUrl = `http://127.0.0.1:${FRONTEND_PORT}`;
const backendUrl = `http://127.0.0.1:${BACKEND_PORT}`;

// The config is evaluated again in every worker: the runner creates the data dir once,
// passes it down through the environment, and removes it when it exits (after the servers).
if (!process.env.BATON_E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-e2e-'));
  process.env.BATON_E2E_DATA_DIR = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

// On Postgres, the e2e run gets its own database, dropped when the runner exits, so it
// never touches the data of the database DATABASE_URL names.
if (process.env.DATABASE_URL && !process.env.BATON_E2E_DATABASE_URL) {
  const name = `baton_e2e_${Date.now().toString(36)}_${process.pid}`;
  const runSql = (sql: string) =>
    execFileSync(
      process.execPath,
      ['-e', "const c = new (require('pg').Client)(process.argv[1]); c.connect().then(() => c.query(process.argv[2])).finally(() => c.end())", process.env.DATABASE_URL!, sql],
      { cwd: '../backend', stdio: 'inherit' },
    );
  runSql(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  process.env.BATON_E2E_DATABASE_URL = url.toString();
  process.on('exit', () => runSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: frontendUrl,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } }],
  webServer: [
    {
      name: 'backend',
      command: 'node --import tsx src/index.ts',
      cwd: '../backend',
      url: `${backendUrl}/api/health`,
      env: {
        PORT: String(BACKEND_PORT),
        BATON_DATA_DIR: process.env.BATON_E2E_DATA_DIR,
        // Real Postgres instead of PGlite when the environment provides one.
        ...(process.env.BATON_E2E_DATABASE_URL ? { DATABASE_URL: process.env.BATON_E2E_DATABASE_URL } : {}),
      },
      reuseExistingServer: false,
      // SIGTERM lets the backend close PGlite cleanly.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'frontend',
      command: `next build && next start -p ${FRONTEND_PORT}`,
      url: `${frontendUrl}/api/health`,
      env: {
        BACKEND_URL: backendUrl,
        NEXT_DIST_DIR: DIST_DIR,
        NEXT_TELEMETRY_DISABLED: '1',
      },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
