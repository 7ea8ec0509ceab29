import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

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

/** Starts the real backend (`src/index.ts`) as a child process and waits until it listens. */
export async function startBackend(env: Record<string, string | undefined>): Promise<BackendProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: backendDir,
    // An undefined value removes the variable (e.g. DATABASE_URL to force PGlite).
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`backend did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
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

/** JSON requests to the default workspace of a backend process. */
export function workspaceApi(backend: BackendProcess) {
  const base = () => `${backend.url}/api/workspaces/default`;
  return {
    async get(path: string) {
      const res = await fetch(`${base()}${path}`);
      return res.status === 200 ? res.json() : undefined;
    },
    async post(path: string, body: unknown = {}) {
      const res = await fetch(`${base()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    },
  };
}
