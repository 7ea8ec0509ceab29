// The benchmark's environment: a fresh database, the standalone demo model and Baton on loopback.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { createApp } from '../src/app';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { Secrets } from '../src/secrets/secrets';
import { prepareDatabase } from '../src/bootstrap';
import type { DatabaseHandle } from '../src/db/client';
import { spawnThread, type Thread } from './threads';

export interface BenchDatabase {
  handle: DatabaseHandle;
  /** Human-readable: which database the figures come from. */
  label: string;
  close(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(`the benchmark only talks to loopback addresses; DATABASE_URL points at "${host}"`);
  }
}

/** A uniquely named database on the server of DATABASE_URL (dropped at the end), else PGlite in a temp dir. */
export async function openBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  if (databaseUrl) {
    assertLoopback(databaseUrl);
    const name = `baton_bench_${randomBytes(5).toString('hex')}`;
    const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        return await run(client);
      } finally {
        await client.end();
      }
    };
    await admin((c) => c.query(`CREATE DATABASE ${name}`));
    const drop = () =>
      admin(async (c) => {
        // pool.end() can resolve while its sockets are still closing; give them a moment
        // (bounded) so FORCE does not have to kill them mid-goodbye.
        for (let i = 0; i < 50; i++) {
          const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    let handle: DatabaseHandle;
    try {
      handle = await prepareDatabase({ kind: 'postgres', url: withDatabase(databaseUrl, name) }, { seed: false });
    } catch (err) {
      await drop();
      throw err;
    }
    const version = await handle.db.execute('show server_version');
    const v = (version as unknown as { rows: { server_version: string }[] }).rows[0]?.server_version;
    return {
      handle,
      label: `PostgreSQL ${v ?? '?'} (node-postgres, database ${name})`,
      close: async () => {
        await handle.close();
        await drop();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'baton-bench-'));
  let handle: DatabaseHandle;
  try {
    handle = await prepareDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') }, { seed: false });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    handle,
    label: `PGlite (embedded, data dir in ${tmpdir()})`,
    close: async () => {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Handler = (req: Request) => Response | Promise<Response>;

export interface BatonServer {
  url: string;
  app: ReturnType<typeof createApp>;
  /** The owner's session cookie (the bench signs up on its fresh database). */
  cookie: string;
  /** Set by the breakdown to observe requests; unset (one null check) for the headline figures. */
  probe?: (handler: Handler, req: Request) => Promise<Response>;
  /** Set by the breakdown to observe Baton's calls to the model (the guarded fetch it uses). */
  modelProbe?: (modelFetch: typeof fetch, input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

/** Baton's HTTP API on 127.0.0.1, its agents answered by the demo model at `demo.baseURL`. */
export function startBaton(handle: DatabaseHandle, demo: { baseURL: string }): Promise<BatonServer> {
  const secrets = Secrets.random();
  // The model is reached as in production: through the guarded fetch for operator-configured models.
  const guarded = createOutbound({ allowPrivateAddresses: false });
  const operatorFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    baton.modelProbe ? baton.modelProbe(guarded.operatorFetch, input, init) : guarded.operatorFetch(input, init)) as typeof fetch;
  const app = createApp({
    db: handle.db,
    databaseKind: handle.kind,
    defaultModel: { kind: 'demo', baseURL: demo.baseURL },
    secrets,
    outbound: { ...guarded, operatorFetch },
    auth: { secret: secrets.derive('auth-signing').toString('base64'), openSignup: false, signInAttemptsPerMinute: 1_000 },
  });
  const baton: BatonServer = { url: '', cookie: '', app, close: async () => {} };
  const listening = new Promise<BatonServer>((resolve, reject) => {
    const fetch = (req: Request, env: unknown) =>
      baton.probe ? baton.probe((r) => app.fetch(r, env as never), req) : app.fetch(req, env as never);
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      server.off('error', reject);
      resolve(
        Object.assign(baton, {
          url: `http://127.0.0.1:${info.port}`,
          close: async () => {
            await app.deps.runs.drain(0);
            await new Promise<void>((done) => {
              server.close(() => done());
              if ('closeAllConnections' in server) server.closeAllConnections();
            });
          },
        }),
      );
    });
    server.once('error', reject);
  });
  return listening.then(signUpOwner);
}

/** Every API route needs an account: the bench signs up the owner of its fresh database. */
async function signUpOwner(baton: BatonServer): Promise<BatonServer> {
  const res = await fetch(`${baton.url}/api/auth/sign-up/email`, {
    method: 'POST',
    // As a browser on Baton's own origin (better-auth refuses a sign-up without one).
    headers: { 'content-type': 'application/json', origin: baton.url },
    body: JSON.stringify({ name: 'Bench', email: 'bench@baton.test', password: 'bench password 123' }),
    signal: AbortSignal.timeout(10_000),
  });
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('baton.session_token='));
  if (!res.ok || !session) throw new Error(`signing up the bench owner: HTTP ${res.status} ${await res.text()}`);
  baton.cookie = session;
  return baton;
}

export interface DemoModel {
  url: string;
  baseURL: string;
  delayMs: number;
  close(): Promise<void>;
}

/** The demo model (startDemoLlmServer, delay 0 unless BENCH_DEMO_DELAY_MS) on its own thread. */
export async function startDemo(): Promise<DemoModel> {
  const thread = await spawnThread(new URL('./demo-thread.ts', import.meta.url));
  const { url, baseURL, delayMs } = await thread.call<{ url: string; baseURL: string; delayMs: number }>('address');
  return {
    url,
    baseURL,
    delayMs,
    close: async () => {
      await thread.call('close', undefined, 10_000).catch(() => {});
      await thread.terminate();
    },
  };
}

/** The HTTP client on its own thread (see client-thread.ts). */
export const startClient = (): Promise<Thread> => spawnThread(new URL('./client-thread.ts', import.meta.url));
