import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { ownerStatePath } from './e2e/support/accounts';

/**
 * End-to-end tests against the real backend and a production build of the frontend.
 *
 * - backend: `node --import tsx src/index.ts` on :3101 with a fresh embedded database
 *   (PGlite in a new temp dir), or the Postgres in DATABASE_URL when that is set. It runs
 *   under e2e/support/restartable-backend.mjs, so a test can restart it (see
 *   restartBackend in e2e/helpers.ts);
 * - frontend: `next build` into .next-e2e (a regular build in .next stays untouched),
 *   then the production server `node server.mjs` (Next's own handler behind it, as `pnpm start`)
 *   on :3100 with /api proxied to the backend.
 *
 * playwright.dev.config.ts runs the specs that must also hold under `next dev` (React's
 * StrictMode, the dev proxy) against the same backend.
 *
 * Every spec runs signed in: the "owner setup" project (e2e/owner.setup.ts) creates the
 * owner account on the fresh instance through the setup page, as a first visitor would, and
 * saves the session for the other projects (storageState). Sessions live in the database and
 * are signed with BATON_SECRET_KEY, fixed here, so a backend restarted by a test keeps them.
 */
// Overridable so two suites (say, two engineers' worktrees) can run side by side.
const BACKEND_PORT = Number(process.env.E2E_BACKEND_PORT ?? 3101);
const FRONTEND_PORT = Number(process.env.E2E_FRONTEND_PORT ?? 3100);
export const DIST_DIR = process.env.E2E_DIST_DIR ?? '.next-e2e';
export const frontendUrl = `http://127.0.0.1:${FRONTEND_PORT}`;
const backendUrl = `http://127.0.0.1:${BACKEND_PORT}`;

// The config is evaluated again in every worker: the runner creates the temp dir once,
// passes it down through the environment, and removes it when it exits (after the servers).
if (!process.env.BATON_E2E_DIR) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-e2e-'));
  process.env.BATON_E2E_DIR = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}
const e2eDir = process.env.BATON_E2E_DIR;

// On Postgres, the e2e run gets its own database, dropped when the runner exits, so it
// never touches the data of the database DATABASE_URL names.
if (process.env.DATABASE_URL && !process.env.BATON_E2E_DATABASE_URL) {
  const name = `baton_e2e_${Date.now().toString(36)}_${process.pid}`;
  const runSql = (sql: string) =>
    execFileSync(
      process.execPath,
      [
        '-e',
        "const c = new (require('pg').Client)(process.argv[1]); c.connect().then(() => c.query(process.argv[2])).finally(() => c.end())",
        process.env.DATABASE_URL!,
        sql,
      ],
      { cwd: '../backend', stdio: 'inherit' },
    );
  runSql(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  process.env.BATON_E2E_DATABASE_URL = url.toString();
  process.on('exit', () => runSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** What both configs share: the browser, the backend, the reporter. */
export const shared: PlaywrightTestConfig = {
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  // One retry: a test that fails and then passes is reported as "flaky" by name (the list
  // reporter's summary), and the run still passes. Two CI runs in a row each lost a whole
  // stop to one such failure on a slower machine; each flaky name is a lead to follow, not
  // a pass to forget (docs/architecture.md, "Tests").
  retries: 1,
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
  projects: projects(),
};

/**
 * The owner's account is created first; the specs (`testMatch`: all of them by default) then
 * run as the owner. Under `next dev` (`compileFirst`), every page is compiled before that.
 */
export function projects(testMatch?: string[], { compileFirst = false } = {}): PlaywrightTestConfig['projects'] {
  const browser = { browserName: 'chromium' as const, viewport: { width: 1280, height: 800 } };
  return [
    ...(compileFirst ? [{ name: 'dev pages', testMatch: /dev-pages\.setup\.ts$/, use: browser }] : []),
    { name: 'owner setup', testMatch: /owner\.setup\.ts$/, dependencies: compileFirst ? ['dev pages'] : [], use: browser },
    { name: 'chromium', dependencies: ['owner setup'], ...(testMatch ? { testMatch } : {}), use: { ...browser, storageState: ownerStatePath() } },
  ];
}

/**
 * The suite's single sign-on provider: a real OpenID Connect provider (oidc-provider, from the
 * backend's test support) on its own port, which the backend is configured for (sso.spec.ts).
 */
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? FRONTEND_PORT + 8);
const oidcIssuer = `http://127.0.0.1:${OIDC_PORT}`;
const OIDC_CLIENT = { id: 'baton-e2e', secret: 'baton-e2e-only-client-secret-0123456789' };
export const oidcServer = {
  name: 'oidc',
  command: 'node --import tsx test/support/oidc-provider-server.ts',
  cwd: '../backend',
  url: `${oidcIssuer}/.well-known/openid-configuration`,
  env: {
    OIDC_PORT: String(OIDC_PORT),
    OIDC_REDIRECT_URI: `${frontendUrl}/api/auth/callback/oidc`,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
  },
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'ignore' as const,
};

export const backendServer = {
  name: 'backend',
  command: 'node ../frontend/e2e/support/restartable-backend.mjs',
  cwd: '../backend',
  url: `${backendUrl}/api/health`,
  env: {
    PORT: String(BACKEND_PORT),
    BATON_DATA_DIR: join(e2eDir, 'data'),
    BATON_E2E_BACKEND_PID_FILE: join(e2eDir, 'backend.pid'),
    // A restart in a test interrupts what is running at once, as a crash would.
    BATON_SHUTDOWN_GRACE_MS: '1',
    // The delegation specs' slow demo model is a provider on a loopback port.
    BATON_ALLOW_PRIVATE_URLS: 'true',
    // Fixed, so sessions signed before a restart (restartBackend) are still valid after it.
    // A test-only value (32 bytes, base64): never use it anywhere else.
    BATON_SECRET_KEY: Buffer.from('baton-e2e-only-session-secret-32').toString('base64'),
    // Every browser of the suite signs in from 127.0.0.1: the per-address limit of real
    // deployments would make the specs wait for each other.
    BATON_SIGN_IN_ATTEMPTS_PER_MINUTE: '1000',
    // The operator's MCP servers, Claude Desktop style: server-everything over stdio (mcp-stdio.spec.ts).
    // Relative to the repository's root, wherever the backend starts.
    BATON_MCP_CONFIG: 'apps/frontend/e2e/support/mcp-servers.json',
    // The web app's server (and the browser) on 127.0.0.1: any other loopback address can
    // then play a client the backend must not take for a proxy (client-address.spec.ts).
    BATON_TRUSTED_PROXIES: '127.0.0.1',
    // Where the browser reaches Baton: the OAuth callback of tool servers is under it (mcp-oauth.spec.ts).
    BATON_PUBLIC_URL: frontendUrl,
    // Single sign-on with the suite's OIDC provider (oidcServer, started first).
    BATON_OIDC_ISSUER: oidcIssuer,
    BATON_OIDC_CLIENT_ID: OIDC_CLIENT.id,
    BATON_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    BATON_OIDC_LABEL: 'Test SSO',
    // Real Postgres instead of PGlite when the environment provides one.
    ...(process.env.BATON_E2E_DATABASE_URL ? { DATABASE_URL: process.env.BATON_E2E_DATABASE_URL } : {}),
  },
  reuseExistingServer: false,
  // SIGTERM lets the backend close PGlite cleanly.
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
  timeout: 180_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
};

/**
 * The image host the operator allow-lists for the suite (BATON_IMAGE_HOSTS): remote-images.spec.ts
 * serves images there, and from a second host that is not on the list.
 */
export const IMAGE_HOST_PORT = Number(process.env.E2E_IMAGE_HOST_PORT ?? FRONTEND_PORT + 7);

export const frontendEnv = {
  BACKEND_URL: backendUrl,
  NEXT_TELEMETRY_DISABLED: '1',
  BATON_IMAGE_HOSTS: `127.0.0.1:${IMAGE_HOST_PORT}`,
};

export default defineConfig({
  ...shared,
  webServer: [
    oidcServer,
    backendServer,
    {
      name: 'frontend',
      // server.mjs, as `pnpm start`: Next's handler behind a server that appends each request's
      // address to X-Forwarded-For (client-address.spec.ts); idle keep-alive sockets live 65 s.
      command: `next build && node server.mjs -H 127.0.0.1 -p ${FRONTEND_PORT}`,
      url: `${frontendUrl}/api/health`,
      env: { ...frontendEnv, NEXT_DIST_DIR: DIST_DIR },
      reuseExistingServer: false,
      // Generous: a loaded machine (other suites beside it) builds slowly; CI builds in about a minute.
      timeout: 600_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
