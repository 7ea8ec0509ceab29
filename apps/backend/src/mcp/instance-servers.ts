import type { McpFailure, McpServerTransport } from '@baton/schemas';
import { connectMcp, type McpConnection, type McpListing } from './connect';
import { MCP_CONNECT_TIMEOUT_MS, McpConnectError } from './failures';
import type { InstanceMcpEntry } from './instance-config';
import { DEFAULT_STDIO_TIMINGS, StdioMcpProcess, type StdioTimings } from './stdio-process';

/** The id of an instance server: stable across restarts (agents keep `mcp:<id>:<tool>`), unlike any workspace server's. */
export const INSTANCE_MCP_ID_PREFIX = 'inst_';
export const instanceMcpServerId = (name: string) => `${INSTANCE_MCP_ID_PREFIX}${name}`;
export const isInstanceMcpServerId = (id: string) => id.startsWith(INSTANCE_MCP_ID_PREFIX);

/** What the listing shows of one operator server, whatever its kind. */
export interface InstanceServerStatus {
  id: string;
  name: string;
  transport: McpServerTransport;
  url: string | null;
  headerNames: string[];
  listing: McpListing | null;
  failure: McpFailure | null;
  stderr: string[] | null;
  checkedAt: Date | null;
}

interface UrlServer {
  entry: Extract<InstanceMcpEntry, { kind: 'url' }>;
  listing: McpListing | null;
  failure: McpFailure | null;
  checkedAt: Date | null;
  listed?: Promise<void>;
}

/**
 * The MCP servers of BATON_MCP_CONFIG, one set per backend process. Stdio servers are
 * processes started with the backend and shared by every turn; URL servers are connected per
 * turn like a workspace's (through the operator fetch: the operator's file may name private
 * addresses), their listing kept here. Which workspaces use them is stored per workspace.
 */
export class InstanceMcpServers {
  private readonly stdio = new Map<string, StdioMcpProcess>();
  private readonly urls = new Map<string, UrlServer>();
  private readonly order: string[] = [];
  /** When the file was read: what the listing gives as the servers' creation time. */
  readonly loadedAt = new Date();

  constructor(
    entries: InstanceMcpEntry[],
    private readonly operatorFetch: typeof fetch,
    timings: StdioTimings = DEFAULT_STDIO_TIMINGS,
  ) {
    for (const entry of entries) {
      const id = instanceMcpServerId(entry.name);
      this.order.push(id);
      if (entry.kind === 'stdio') this.stdio.set(id, new StdioMcpProcess(entry, timings));
      else this.urls.set(id, { entry, listing: null, failure: null, checkedAt: null });
    }
  }

  static none(): InstanceMcpServers {
    return new InstanceMcpServers([], fetch);
  }

  get ids(): readonly string[] {
    return this.order;
  }

  has(id: string): boolean {
    return this.stdio.has(id) || this.urls.has(id);
  }

  /** Starts every process and lists every URL server, in the background (failures are in the listing). */
  start(): void {
    for (const process of this.stdio.values()) void process.start();
    for (const server of this.urls.values()) void this.listUrl(server);
  }

  /** For tests: the process behind a stdio server. */
  process(id: string): StdioMcpProcess | undefined {
    return this.stdio.get(id);
  }

  status(id: string): InstanceServerStatus | undefined {
    const process = this.stdio.get(id);
    if (process) {
      const s = process.status();
      const failure = s.failure ?? (s.state === 'starting' ? { kind: 'process_failed' as const, message: 'The server is starting.' } : null);
      return {
        id,
        name: process.spec.name,
        transport: 'stdio',
        url: null,
        headerNames: [],
        listing: s.listing,
        failure,
        stderr: s.stderr,
        checkedAt: s.checkedAt,
      };
    }
    const server = this.urls.get(id);
    if (!server) return undefined;
    const { entry } = server;
    return {
      id,
      name: entry.name,
      transport: entry.transport,
      url: entry.url,
      headerNames: Object.keys(entry.headers),
      listing: server.listing,
      failure: server.failure,
      stderr: null,
      checkedAt: server.checkedAt,
    };
  }

  list(): InstanceServerStatus[] {
    return this.order.map((id) => this.status(id)!);
  }

  /** Lists again (a stdio server waiting to restart is started now). */
  async refresh(id: string): Promise<InstanceServerStatus | undefined> {
    const process = this.stdio.get(id);
    if (process) await process.refresh();
    const server = this.urls.get(id);
    if (server) await this.listUrl(server);
    return this.status(id);
  }

  /**
   * A session for one turn: the shared one of a stdio server (its close does nothing), or a
   * new connection to a URL server (closed by the turn). Throws McpConnectError.
   */
  async connect(id: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<McpConnection> {
    const process = this.stdio.get(id);
    if (process) return process.connection(options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS, options.signal);
    const server = this.urls.get(id);
    if (!server) throw new McpConnectError({ kind: 'unreachable', message: 'The server is no longer in BATON_MCP_CONFIG.' });
    const { url, transport, headers } = server.entry;
    return connectMcp({ url, transport, headers }, this.operatorFetch, options);
  }

  /** Stops every process (on shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.stdio.values()].map((p) => p.stop()));
  }

  private listUrl(server: UrlServer): Promise<void> {
    server.listed ??= (async () => {
      try {
        const connection = await this.connect(instanceMcpServerId(server.entry.name));
        server.listing = connection.listing;
        server.failure = null;
        await connection.close();
      } catch (err) {
        if (!(err instanceof McpConnectError)) throw err;
        server.failure = err.failure;
      } finally {
        server.checkedAt = new Date();
        server.listed = undefined;
      }
    })();
    return server.listed;
  }
}
