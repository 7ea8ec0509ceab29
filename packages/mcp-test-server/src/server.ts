// A real MCP server (the official SDK, Streamable HTTP, one session per client) on loopback,
// for Baton's backend tests and the e2e. Its tools answer deterministically.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TestMcpServerOptions {
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  hostname?: string;
  /** Also list `snapshot`, whose result holds an image and embedded resources (text and binary). */
  mediaTools?: boolean;
}

/** `snapshot`'s image: a 1×1 PNG. */
export const SNAPSHOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** `snapshot`'s binary resource: a tiny PDF. */
export const SNAPSHOT_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n').toString('base64');

export interface TestMcpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:4321/mcp`. */
  url: string;
  /** The same tools over the older HTTP+SSE transport (GET opens the stream, POSTs go to /messages). */
  sseUrl: string;
  /** An endpoint on the same server that answers plain HTML: not MCP (for "bad protocol"). */
  notMcpUrl: string;
  /** An endpoint that accepts the request and never answers (for "timeout"). */
  hangUrl: string;
  port: number;
  /** MCP sessions opened and not yet closed by their client (DELETE, or an SSE stream ended) or the server. */
  openSessions(): number;
  /** Every tool call so far, in order. */
  calls(): { name: string; args: unknown }[];
  /** The server stops (as if it died) right after it next answers a tools/list: the next tool call fails. */
  dieAfterNextListing(): void;
  /** Stops listening and drops every connection. Idempotent. */
  close(): Promise<void>;
}

/** What `lookup_fact` knows; anything else gets a fixed "nothing on file" answer. */
export const TEST_FACTS: Record<string, string> = {
  otters: 'Sea otters hold hands while they sleep so they do not drift apart.',
  octopus: 'An octopus has three hearts and blue blood.',
  honey: 'Honey found in ancient Egyptian tombs was still edible.',
};

export function factAbout(topic: string): string {
  const fact = TEST_FACTS[topic.trim().toLowerCase()];
  return fact ? `Fact about ${topic}: ${fact}` : `No fact on file about "${topic}".`;
}

export function buildMcpServer(record: (name: string, args: unknown) => void, mediaTools = false): McpServer {
  const server = new McpServer({ name: 'baton-test-mcp', version: '1.0.0' });
  server.registerTool(
    'lookup_fact',
    { description: 'Looks up a short fact about a topic (deterministic test data).', inputSchema: { topic: z.string().describe('The topic, e.g. "otters"') } },
    async (args) => {
      record('lookup_fact', args);
      return { content: [{ type: 'text', text: factAbout(args.topic) }] };
    },
  );
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async (args) => {
    record('add', args);
    return { content: [{ type: 'text', text: String(args.a + args.b) }] };
  });
  if (mediaTools) {
    server.registerTool(
      'snapshot',
      { description: 'Takes a snapshot of a subject: an image, its notes and a report (deterministic test data).', inputSchema: { subject: z.string() } },
      async (args) => {
        record('snapshot', args);
        return {
          content: [
            { type: 'text', text: `Snapshot of ${args.subject}.` },
            { type: 'image', data: SNAPSHOT_PNG, mimeType: 'image/png' },
            {
              type: 'resource',
              resource: { uri: `test://notes/${encodeURIComponent(args.subject)}.txt`, mimeType: 'text/plain', text: `Notes on ${args.subject}.` },
            },
            { type: 'resource', resource: { uri: 'test://reports/report.pdf', mimeType: 'application/pdf', blob: SNAPSHOT_PDF } },
          ],
        };
      },
    );
  }
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isToolsList = (body: unknown) => (Array.isArray(body) ? body : [body]).some((m) => (m as { method?: unknown } | undefined)?.method === 'tools/list');

export function startTestMcpServer(options: TestMcpServerOptions = {}): Promise<TestMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  // The older transport (deprecated in the SDK, still what some servers speak): for Baton's SSE fallback.
  const sseTransports = new Map<string, SSEServerTransport>();
  const calls: { name: string; args: unknown }[] = [];
  let dieAfterListing = false;
  let closing: Promise<void> | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/hang') return; // never answered; close() drops it
    const isSse = (path === '/sse' && req.method === 'GET') || (path === '/messages' && req.method === 'POST');
    if (path !== '/mcp' && !isSse) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Not an MCP server</body></html>');
      return;
    }
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    if (isSse) return handleSse(req, res, path);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (typeof sessionId === 'string') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
        onsessionclosed: (id) => {
          transports.delete(id);
        },
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await buildMcpServer((name, args) => calls.push({ name, args }), options.mediaTools).connect(created);
      transport = created;
    }
    if (dieAfterListing && isToolsList(body)) {
      dieAfterListing = false;
      res.once('finish', () => void close());
    }
    await transport.handleRequest(req, res, body);
  };

  const handleSse = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sseTransports.set(transport.sessionId, transport);
      transport.onclose = () => sseTransports.delete(transport.sessionId);
      res.once('close', () => sseTransports.delete(transport.sessionId));
      await buildMcpServer((name, args) => calls.push({ name, args }), options.mediaTools).connect(transport);
      return;
    }
    const sessionId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
    const transport = sseTransports.get(sessionId);
    if (!transport) {
      res.writeHead(404).end('Session not found');
      return;
    }
    const body = await readJson(req);
    if (dieAfterListing && isToolsList(body)) {
      dieAfterListing = false;
      // The answer goes out on the stream, not in this response: give it a moment to leave.
      res.once('finish', () => setTimeout(() => void close(), 50));
    }
    await transport.handlePostMessage(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });

  const close = () => {
    closing ??= new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
      // The sessions died with the server: nothing is open any more.
      transports.clear();
      sseTransports.clear();
    });
    return closing;
  };

  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
      resolve({
        url: `${origin}/mcp`,
        sseUrl: `${origin}/sse`,
        notMcpUrl: `${origin}/not-mcp`,
        hangUrl: `${origin}/hang`,
        port,
        openSessions: () => transports.size + sseTransports.size,
        calls: () => [...calls],
        dieAfterNextListing: () => {
          dieAfterListing = true;
        },
        close,
      });
    });
  });
}
