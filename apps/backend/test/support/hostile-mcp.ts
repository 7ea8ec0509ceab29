import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How a JSON-RPC request is treated: answered properly; answered with an SSE stream that
 * ends without the response (`content-type: text/event-stream`, then the stream closes);
 * or accepted and never answered (the response stays open until the server closes).
 */
export type McpBehaviour = 'answer' | 'sse-without-answer' | 'no-answer';

export type McpMethod = 'initialize' | 'tools/list' | 'tools/call';

export interface HostileMcpServer {
  /** Its Streamable HTTP endpoint. */
  url: string;
  /** How `method` is treated from now on (every method is answered until told otherwise). */
  set(method: McpMethod, behaviour: McpBehaviour): void;
  /** How many requests of `method` arrived. */
  received(method: McpMethod): number;
  /** Stops listening and drops every connection (open answers included). */
  close(): Promise<void>;
}

/** The one tool it offers. */
export const HOSTILE_TOOL = 'slow_lookup';

/**
 * A hand-written MCP server (Streamable HTTP, JSON answers, no session) whose requests can
 * be made to misbehave one method at a time: a test fixture for Baton's MCP deadlines.
 * `server/discover` (the newer protocol's first request) is refused as unknown, as an
 * older server does, so the client goes on with `initialize`.
 */
export async function startHostileMcpServer(): Promise<HostileMcpServer> {
  const behaviours = new Map<string, McpBehaviour>();
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();

  const resultFor = (method: string, params: { protocolVersion?: string } | undefined) => {
    if (method === 'initialize') {
      return { protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hostile-mcp', version: '1.0.0' } };
    }
    if (method === 'tools/list') {
      return {
        tools: [
          {
            name: HOSTILE_TOOL,
            description: 'Looks up a fact, when it answers at all.',
            inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
          },
        ],
      };
    }
    if (method === 'tools/call') return { content: [{ type: 'text', text: 'The slow answer.' }] };
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    // No server-initiated stream.
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number | string; method: string; params?: { protocolVersion?: string } };
    counts.set(message.method, (counts.get(message.method) ?? 0) + 1);
    if (message.id === undefined) return void res.writeHead(202).end();
    const result = resultFor(message.method, message.params);
    if (!result) {
      const error = { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(error));
    }
    const behaviour = behaviours.get(message.method) ?? 'answer';
    if (behaviour === 'no-answer') return;
    if (behaviour === 'sse-without-answer') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // A comment, then the end of the stream: no JSON-RPC response in it.
      return void res.end(': nothing to say\n\n');
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    set: (method, behaviour) => void behaviours.set(method, behaviour),
    received: (method) => counts.get(method) ?? 0,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
