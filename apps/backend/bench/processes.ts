// The servers under test, each in its own OS process, and what the kernel says about them:
// CPU time (utime + stime from /proc/<pid>/stat) and memory (VmRSS / VmHWM from /proc/<pid>/status).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const backendDir = fileURLToPath(new URL('../', import.meta.url));
const demoDir = fileURLToPath(new URL('../../../packages/demo-llm/', import.meta.url));
const simDir = fileURLToPath(new URL('../../../packages/provider-sim/', import.meta.url));
const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

export interface ServerProcess {
  name: string;
  pid: number;
  /** Origin, e.g. http://127.0.0.1:40123 */
  url: string;
  /** CPU time (user + system) the process has used so far, in ms (kernel clock ticks, 10 ms steps). */
  cpuMs(): number;
  /** The system (kernel) part of it: system calls, socket I/O. */
  systemMs(): number;
  /** Resident memory now and its peak (VmHWM), in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  /** Resets the peak (VmHWM) to the current RSS, so a phase can report its own peak. */
  resetPeak(): void;
  output(): string;
  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves when the process is gone. */
  stop(timeoutMs?: number): Promise<void>;
}

function readTicks(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}
const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_S;

function readMemory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

async function startServer(
  name: string,
  {
    cwd,
    args,
    env,
    ready,
    startTimeoutMs = 60_000,
    wrap = [],
  }: {
    cwd: string;
    args: string[];
    /** A command the process runs under (e.g. valgrind and its options), with Node as its program. */
    wrap?: string[];
    env: Record<string, string | undefined>;
    /** The line that says it is ready, or a probe asked every 200 ms (a server whose log says nothing at its level). */
    ready: RegExp | (() => Promise<boolean>);
    startTimeoutMs?: number;
  },
): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const [command, ...prefix] = wrap.length > 0 ? wrap : [process.execPath];
  const child = spawn(command!, wrap.length > 0 ? [...prefix, process.execPath, ...args] : args, {
    cwd,
    // An undefined value removes the variable.
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    // Keep the tail only: a long run must not grow the bench's memory.
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    if (typeof ready === 'function') {
      const started = Date.now();
      const poll = async () => {
        if (child.exitCode !== null) return reject(new Error(`${name} exited with ${child.exitCode} before it was ready:\n${output}`));
        if (await ready()) return resolve([''] as unknown as RegExpExecArray);
        if (Date.now() - started > startTimeoutMs) {
          child.kill('SIGKILL');
          return reject(new Error(`${name} did not start within ${startTimeoutMs} ms:\n${output}`));
        }
        setTimeout(poll, 200);
      };
      return void poll();
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    const onData = () => {
      const m = ready.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.off('exit', onExit);
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready:\n${output}`));
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
  return { child, match, output: () => output };
}

function serverProcess(name: string, child: ChildProcess, url: string, output: () => string): ServerProcess {
  const pid = child.pid!;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => {});
  return {
    name,
    pid,
    url,
    cpuMs: () => {
      const t = readTicks(pid);
      return ticksToMs(t.user + t.system);
    },
    systemMs: () => ticksToMs(readTicks(pid).system),
    memory: () => readMemory(pid),
    resetPeak: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    output,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const killed = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, timeoutMs);
      });
      await Promise.race([exited, killed]);
      clearTimeout(timer);
      await exited;
    },
  };
}

/** The standalone demo model (`packages/demo-llm/src/server.ts`) on 127.0.0.1, `delayMs` between words. */
export async function startDemoProcess(delayMs: number): Promise<ServerProcess> {
  const { child, match, output } = await startServer(`demo model (${delayMs} ms)`, {
    cwd: demoDir,
    args: ['--import', 'tsx', 'src/server.ts'],
    env: { DEMO_LLM_PORT: '0', DEMO_LLM_HOSTNAME: '127.0.0.1', DEMO_LLM_DELAY_MS: String(delayMs) },
    ready: /at http:\/\/127\.0\.0\.1:(\d+)\/v1/,
  });
  return serverProcess(`demo model, ${delayMs} ms between words`, child, `http://127.0.0.1:${match[1]}`, output);
}

/** The provider simulator (`packages/provider-sim/src/server.ts`) with one behaviour for every model id. */
export async function startProviderSimProcess(behaviour: object, delayMs: number): Promise<ServerProcess> {
  const { child, match, output } = await startServer('provider simulator', {
    cwd: simDir,
    args: ['--import', 'tsx', 'src/server.ts'],
    env: {
      PROVIDER_SIM_PORT: '0',
      PROVIDER_SIM_HOSTNAME: '127.0.0.1',
      PROVIDER_SIM_DELAY_MS: String(delayMs),
      PROVIDER_SIM_BEHAVIOUR: JSON.stringify(behaviour),
    },
    ready: /at http:\/\/127\.0\.0\.1:(\d+)\/v1/,
  });
  return serverProcess(`provider simulator ${JSON.stringify(behaviour)}`, child, `http://127.0.0.1:${match[1]}`, output);
}

/** The bare relay (bench/bare-relay-server.ts) in front of the model at `modelOrigin`: a reference, not Baton. */
export async function startBareRelayProcess(modelOrigin: string): Promise<ServerProcess> {
  const { child, match, output } = await startServer('bare relay', {
    cwd: backendDir,
    args: ['--import', 'tsx', 'bench/bare-relay-server.ts', modelOrigin],
    env: {},
    ready: /listening on (\d+)/,
  });
  return serverProcess('bare relay', child, `http://127.0.0.1:${match[1]}`, output);
}

/**
 * The AI SDK template's route (bench/peer-server.ts) on the model at `modelBaseURL`: the
 * honest anchor. On Postgres it shares the bench's database (tables of its own); on PGlite
 * it gets its own data directory next to Baton's (one process per PGlite directory).
 */
export async function startPeerProcess(
  modelBaseURL: string,
  database: { DATABASE_URL: string } | { BATON_DATA_DIR: string },
  cpuProfileDir?: string,
  wrap?: string[],
): Promise<ServerProcess> {
  const profile = cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir] : [];
  const { child, match, output } = await startServer('AI SDK template (peer)', {
    cwd: backendDir,
    wrap,
    startTimeoutMs: wrap ? 600_000 : 60_000,
    args: [...profile, '--import', 'tsx', 'bench/peer-server.ts', modelBaseURL],
    env:
      'DATABASE_URL' in database
        ? { DATABASE_URL: database.DATABASE_URL, PEER_PGLITE_DIR: undefined }
        : { DATABASE_URL: undefined, PEER_PGLITE_DIR: `${database.BATON_DATA_DIR}/peer-pglite` },
    ready: /listening on (\d+)/,
  });
  return serverProcess('AI SDK template (peer)', child, `http://127.0.0.1:${match[1]}`, output);
}

export interface BatonOptions {
  /** DATABASE_URL (Postgres) or BATON_DATA_DIR (PGlite). */
  database: { DATABASE_URL: string } | { BATON_DATA_DIR: string };
  /** The demo model's base URL (…/v1): Baton's default model. */
  demoBaseURL: string;
  redisUrl?: string;
  /** Write a V8 CPU profile of the whole process into this directory when it exits. */
  cpuProfileDir?: string;
  /**
   * Listen on this port, and know Baton is ready when `/api/health` answers there: with
   * BATON_LOG_LEVEL above `info` it prints no "listening" line to read the port from.
   */
  port?: number;
  /** More of Baton's environment, last (an undefined value removes a variable): the observability phase's settings. */
  env?: Record<string, string | undefined>;
  /** Run Baton under this command (valgrind: bench/instructions.ts). */
  wrap?: string[];
}

/** The real backend (`src/index.ts`), configured through its environment like any deployment. */
export async function startBatonProcess(options: BatonOptions): Promise<ServerProcess> {
  const profile = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  const { child, match, output } = await startServer('Baton', {
    cwd: backendDir,
    // Compiling on start-up and migrating a fresh database take long on a loaded machine (and under valgrind).
    startTimeoutMs: options.wrap ? 600_000 : 120_000,
    wrap: options.wrap,
    args: [...profile, '--import', 'tsx', 'src/index.ts'],
    env: {
      PORT: String(options.port ?? 0),
      DATABASE_URL: undefined,
      BATON_DATA_DIR: undefined,
      ...options.database,
      BATON_DEMO_MODEL_URL: options.demoBaseURL,
      REDIS_URL: options.redisUrl,
      // The demo model, never a real one.
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      // Stop means stop: the bench ends its processes between phases.
      BATON_SHUTDOWN_GRACE_MS: '1000',
      ...options.env,
    },
    ready: options.port
      ? () =>
          fetch(`http://127.0.0.1:${options.port}/api/health`, { signal: AbortSignal.timeout(1_000) }).then(
            (r) => r.ok,
            () => false,
          )
      : /listening on http:\/\/[^:]+:(\d+)/,
  });
  return serverProcess('Baton', child, `http://127.0.0.1:${options.port ?? match[1]}`, output);
}
