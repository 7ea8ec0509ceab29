import { createMCPClient, type MCPClient, type MCPTransport } from '@ai-sdk/mcp';
import type { McpFailure } from '@baton/schemas';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpConnection, McpListing } from './connect';
import { log } from '../ops/logger';
import { MCP_CONNECT_TIMEOUT_MS, McpConnectError, secondsText } from './failures';

/** One stdio server of BATON_MCP_CONFIG: what to run. */
export interface StdioCommand {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface StdioTimings {
  /** Spawning, the handshake and the first listing (npx may download the server first). */
  startTimeoutMs: number;
  /** The first restart's delay, doubled after each failure up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A process that ran this long before dying restarts after `backoffMs` again. */
  stableMs: number;
}

export const DEFAULT_STDIO_TIMINGS: StdioTimings = { startTimeoutMs: 30_000, backoffMs: 1_000, maxBackoffMs: 60_000, stableMs: 60_000 };

/**
 * What the process gets from Baton's own environment: enough to find programs and a home
 * directory, and nothing else — never DATABASE_URL, BATON_SECRET_KEY or a provider's key. The
 * MCP SDK adds its own short list (HOME, LOGNAME, PATH, SHELL, TERM, USER); the file's `env` wins.
 */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;

export function stdioEnvironment(fileEnv: Record<string, string>, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = from[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return { ...env, ...fileEnv };
}

export type StdioState = 'starting' | 'ready' | 'restarting' | 'stopped';

export interface StdioStatus {
  state: StdioState;
  listing: McpListing | null;
  failure: McpFailure | null;
  /** The last lines the process wrote to stderr, values of the file's env masked. */
  stderr: string[];
  checkedAt: Date | null;
  restarts: number;
}

const STDERR_LINES = 20;
const STDERR_LINE_CHARS = 500;
/** Values this short are too likely to appear by chance to be masked usefully. */
const MIN_MASKED_CHARS = 6;

const failure = (message: string): McpFailure => ({ kind: 'process_failed', message });

/**
 * A stdio MCP server run by this backend process: started once, shared by every turn (each
 * call has its own deadline: agent/tools/mcp-tools.ts), restarted with a growing delay when it
 * dies or fails to start, stopped on shutdown. Spawned without a shell (arguments as an array).
 */
export class StdioMcpProcess {
  private state: StdioState = 'stopped';
  private client: MCPClient | undefined;
  private transport: StdioClientTransport | undefined;
  private listing: McpListing | null = null;
  private failure: McpFailure | null = null;
  private checkedAt: Date | null = null;
  private stderrLines: string[] = [];
  private partialLine = '';
  private restarts = 0;
  private failures = 0;
  private readySince = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Settles when the current start attempt has (successfully or not). */
  private attempt: Promise<void> = Promise.resolve();
  /** Bumped per spawn: an exit reported by an older process is ignored. */
  private generation = 0;
  private readonly masked: string[];

  constructor(
    readonly spec: StdioCommand,
    private readonly timings: StdioTimings = DEFAULT_STDIO_TIMINGS,
  ) {
    this.masked = Object.values(spec.env).filter((v) => v.length >= MIN_MASKED_CHARS);
  }

  /** The process's id while one runs (tests kill it to see the restart). */
  get pid(): number | null {
    return this.transport?.pid ?? null;
  }

  status(): StdioStatus {
    return {
      state: this.state,
      listing: this.listing,
      failure: this.failure,
      stderr: [...this.stderrLines],
      checkedAt: this.checkedAt,
      restarts: this.restarts,
    };
  }

  /** Starts the process unless it runs or is starting; resolves when this attempt settled. */
  start(): Promise<void> {
    if (this.state === 'starting' || this.state === 'ready') return this.attempt;
    clearTimeout(this.retryTimer);
    this.attempt = this.spawn();
    return this.attempt;
  }

  /** Lists the tools again (restarting a process that is waiting to restart); never throws. */
  async refresh(): Promise<StdioStatus> {
    if (this.state === 'ready' && this.client) {
      const client = this.client;
      try {
        this.listing = await client.listTools({ options: { signal: AbortSignal.timeout(MCP_CONNECT_TIMEOUT_MS) } });
        this.failure = null;
      } catch {
        if (this.client === client) this.failure = failure(`The server did not list its tools within ${secondsText(MCP_CONNECT_TIMEOUT_MS)}.`);
      }
      this.checkedAt = new Date();
    } else {
      if (this.state === 'restarting') this.state = 'stopped';
      await this.start();
    }
    return this.status();
  }

  /**
   * The running server's session for a turn (its close is a no-op: the session is shared).
   * Waits for a start under way, at most `timeoutMs` or until `signal` aborts.
   */
  async connection(timeoutMs = MCP_CONNECT_TIMEOUT_MS, signal?: AbortSignal): Promise<McpConnection> {
    if (this.state === 'starting') {
      const gaveUp = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      await Promise.race([this.attempt, gaveUp]);
    }
    if (this.state === 'ready' && this.client && this.listing) return { client: this.client, listing: this.listing, close: async () => {} };
    throw new McpConnectError(this.failure ?? failure('The server is still starting.'));
  }

  /** Stops the process (the SDK closes its stdin, then SIGTERM, then SIGKILL) and any restart. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    this.generation++;
    clearTimeout(this.retryTimer);
    await this.closeProcess();
  }

  private async spawn(): Promise<void> {
    const generation = ++this.generation;
    this.state = 'starting';
    const transport = new StdioClientTransport({
      command: this.spec.command,
      args: this.spec.args,
      env: stdioEnvironment(this.spec.env),
      cwd: this.spec.cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => this.readStderr(chunk.toString('utf8')));
    this.transport = transport;
    // The client sets the transport's handlers; the process's exit is observed around them.
    const observed: MCPTransport = {
      start: () => transport.start(),
      send: (message) => transport.send(message as Parameters<StdioClientTransport['send']>[0]),
      close: () => transport.close(),
    };
    transport.onmessage = (message) => {
      // The server says its tools changed (MCP's list_changed notification): listed again, so turns offer the new ones.
      if ('method' in message && message.method === 'notifications/tools/list_changed' && generation === this.generation) void this.refresh();
      observed.onmessage?.(message as Parameters<NonNullable<MCPTransport['onmessage']>>[0]);
    };
    transport.onerror = (error) => observed.onerror?.(error);
    transport.onclose = () => {
      observed.onclose?.();
      this.exited(generation);
    };
    const deadline = AbortSignal.timeout(this.timings.startTimeoutMs);
    try {
      const client = await createMCPClient({
        transport: observed,
        clientName: 'baton',
        initializationOptions: { signal: deadline },
        // A background error surfaces on the next request; the default would log it.
        onUncaughtError: () => {},
      });
      if (generation !== this.generation) return void (await client.close().catch(() => {}));
      this.client = client;
      const listing = await client.listTools({ options: { signal: deadline } });
      if (generation !== this.generation) return;
      this.listing = listing;
      this.failure = null;
      this.checkedAt = new Date();
      this.readySince = Date.now();
      this.state = 'ready';
    } catch (err) {
      if (generation !== this.generation) return;
      const reason = deadline.aborted
        ? `The server did not start within ${secondsText(this.timings.startTimeoutMs)}.`
        : `The server could not be started: ${this.describe(err)}`;
      this.fail(generation, reason);
      await this.closeProcess();
    }
  }

  private describe(err: unknown): string {
    const code = (err as NodeJS.ErrnoException)?.code;
    if (code === 'ENOENT') return `the command "${this.spec.command}" was not found (check it is installed and on PATH).`;
    if (code === 'EACCES') return `the command "${this.spec.command}" is not executable.`;
    return this.mask(err instanceof Error ? err.message : String(err)).slice(0, STDERR_LINE_CHARS);
  }

  private exited(generation: number) {
    if (generation !== this.generation || this.state === 'stopped') return;
    this.fail(generation, this.state === 'ready' ? 'The server process exited.' : 'The server process exited while starting.');
  }

  /** Records the failure once per process and schedules the next start. */
  private fail(generation: number, message: string) {
    if (generation !== this.generation || this.state === 'restarting' || this.state === 'stopped') return;
    this.failure = failure(message);
    this.checkedAt = new Date();
    this.client = undefined;
    if (this.state === 'ready' && Date.now() - this.readySince >= this.timings.stableMs) this.failures = 0;
    const delay = Math.min(this.timings.backoffMs * 2 ** this.failures, this.timings.maxBackoffMs);
    this.failures++;
    this.state = 'restarting';
    log.warn({ mcpServer: this.spec.name, reason: message, restartInMs: delay }, `MCP server (BATON_MCP_CONFIG) failed; restarting in ${secondsText(delay)}`);
    this.retryTimer = setTimeout(() => {
      if (this.state !== 'restarting') return;
      this.restarts++;
      this.state = 'stopped';
      void this.start();
    }, delay);
    this.retryTimer.unref();
  }

  private async closeProcess() {
    const { client, transport } = this;
    this.client = undefined;
    await client?.close().catch(() => {});
    await transport?.close().catch(() => {});
  }

  private readStderr(text: string) {
    const lines = (this.partialLine + text).split(/\r?\n/);
    this.partialLine = (lines.pop() ?? '').slice(-STDERR_LINE_CHARS);
    for (const line of lines) if (line.trim()) this.stderrLines.push(this.mask(line).slice(0, STDERR_LINE_CHARS));
    if (this.stderrLines.length > STDERR_LINES) this.stderrLines.splice(0, this.stderrLines.length - STDERR_LINES);
  }

  /** The file's env values (tokens, often) never reach the listing members read. */
  private mask(text: string) {
    let out = text;
    for (const value of this.masked) out = out.split(value).join('[redacted]');
    return out;
  }
}
