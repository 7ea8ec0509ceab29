import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type Account, signIn, signUp } from './accounts';
import { clientCredentials, withCredentials } from './credentials';
import { appendToSuiteLog, rememberSecrets } from './suite-secrets';

const backendDir = fileURLToPath(new URL('../../', import.meta.url));

export interface BackendProcess {
  url: string;
  process: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
  /** kill -9: no shutdown code runs. */
  kill(): Promise<void>;
}

/**
 * Starts the real backend as a child process and waits until it listens: its sources through
 * tsx, or with `built` the production bundle (`dist/index.js`, scripts/build.mjs) under plain node.
 */
export async function startBackend(env: Record<string, string | undefined>, { built = false } = {}): Promise<BackendProcess> {
  // What the process is given as secrets (its key, tokens, a database password) is checked against the suite's log too.
  rememberSecrets(
    Object.entries({ BATON_SECRET_KEY: TEST_SECRET_KEY, ...env })
      .filter(([name]) => /SECRET|TOKEN|PASSWORD|_KEY$/.test(name))
      .map(([, value]) => value),
  );
  const child = spawn(process.execPath, built ? ['dist/index.js'] : ['--import', 'tsx', 'src/index.ts'], {
    cwd: backendDir,
    // An undefined value removes the variable (e.g. DATABASE_URL to force PGlite). Replicas
    // and restarts share one secret key, as a deployment's would, so sessions stay valid.
    // Its start-up and shutdown lines are read by tests: info, whatever the suite's own level.
    env: Object.fromEntries(
      Object.entries({ ...process.env, BATON_SECRET_KEY: TEST_SECRET_KEY, BATON_LOG_LEVEL: 'info', ...env }).filter(([, v]) => v !== undefined),
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`backend did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      appendToSuiteLog(chunk.toString());
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`backend exited with ${code}:\n${output}`));
    });
  });
  const exited = once(child, 'exit');
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(name);
    await exited;
  };
  return { url, process: child, output: () => output, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
}

/** 32 bytes, base64: the secret key every backend process of the tests starts with. */
export const TEST_SECRET_KEY = 'YmF0b24tdGVzdHMtc2VjcmV0LWtleS0zMi1ieXRlcyE=';

const owners = new WeakMap<BackendProcess, Promise<Account>>();

/**
 * The owner's session on a backend process: signs the owner up on a fresh database, or in
 * when the database already has them (a restart, another replica). Test clients (postStream,
 * NodeChat) send it from then on.
 */
export function ownerSession(backend: BackendProcess): Promise<Account> {
  let account = owners.get(backend);
  if (!account) {
    const fetcher = (path: string, init?: RequestInit) => fetch(`${backend.url}${path}`, init);
    account = (async () => {
      const status = await (await fetcher('/api/auth-status')).json();
      const owner = status.needsOwner ? await signUp(fetcher, { email: 'owner@baton.test', name: 'Owner' }) : await signIn(fetcher, 'owner@baton.test');
      clientCredentials.headers = { cookie: owner.cookie };
      return owner;
    })();
    owners.set(backend, account);
  }
  return account;
}

/** JSON requests to the default workspace of a backend process, as its owner. */
export function workspaceApi(backend: BackendProcess) {
  const base = () => `${backend.url}/api/workspaces/default`;
  const headers = async () => ({ cookie: (await ownerSession(backend)).cookie });
  return {
    async get(path: string) {
      const res = await fetch(`${base()}${path}`, { headers: await headers() });
      return res.status === 200 ? res.json() : undefined;
    },
    async post(path: string, body: unknown = {}) {
      const res = await fetch(`${base()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await headers()) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    },
  };
}

/**
 * A REST turn (`POST …/chats/:id/messages?stream=1`) of the default workspace, left running: the
 * crash tests kill the process in the middle of it and read what it left, not the response.
 */
export function sendInBackground(backend: BackendProcess, chatId: string, text: string): void {
  void fetch(`${backend.url}/api/workspaces/default/chats/${chatId}/messages?stream=1`, {
    method: 'POST',
    headers: withCredentials({ 'content-type': 'application/json' }),
    body: JSON.stringify({ text }),
  })
    .then((res) => res.text())
    .catch(() => {});
}
