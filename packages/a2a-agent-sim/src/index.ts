import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { A2A_PROTOCOL_VERSION, type AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { type AgentLog, ScriptedExecutor } from './executor';

export type { AgentLog } from './executor';

export interface A2AAgentSimOptions {
  port?: number;
  host?: string;
  name?: string;
  /** The card's `capabilities.streaming` (default true); without it clients send blocking requests. */
  streaming?: boolean;
  stepMs?: number;
  /** Every request must carry this header (else 401): for the tests of stored headers. */
  requireHeader?: { name: string; value: string };
}

export interface A2AAgentSim {
  url: string;
  cardUrl: string;
  log: AgentLog;
  /** Header values the requests carried, by lower-case name (what a test checks was sent). */
  headersSeen: Map<string, string[]>;
  close: () => Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** Starts the scripted agent (JSON-RPC binding of A2A 1.0, via @a2a-js/sdk's request handler). */
export async function startA2AAgentSim(options: A2AAgentSimOptions = {}): Promise<A2AAgentSim> {
  const host = options.host ?? '127.0.0.1';
  const executor = new ScriptedExecutor({ stepMs: options.stepMs ?? 150 });
  const headersSeen = new Map<string, string[]>();
  let card: AgentCard;
  const handler = () => new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  let requestHandler: DefaultRequestHandler;
  let transport: JsonRpcTransportHandler;

  const server: Server = createServer(async (req, res) => {
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headersSeen.set(name, [...(headersSeen.get(name) ?? []), value]);
    }
    const required = options.requireHeader;
    if (required && req.headers[required.name.toLowerCase()] !== required.value) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/') {
      res.writeHead(404).end();
      return;
    }
    const body = await readBody(req);
    const version = req.headers['a2a-version'];
    const context = new ServerCallContext({ requestedVersion: typeof version === 'string' ? version : A2A_PROTOCOL_VERSION });
    let parsed: { id?: unknown };
    try {
      parsed = JSON.parse(body);
    } catch {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    try {
      const result = await transport.handle(parsed as Record<string, unknown>, context);
      if (result && typeof (result as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for await (const event of result as AsyncGenerator) res.write(`data: ${JSON.stringify(event)}\n\n`);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      }
    } catch (err) {
      const error = JsonRpcTransportHandler.mapToJSONRPCError(err);
      if (res.headersSent) res.end(`event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: parsed.id ?? null, error })}\n\n`);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id ?? null, error }));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  card = {
    name: options.name ?? 'Scripted Remote Agent',
    description: 'A scripted A2A agent for tests: streams status updates, writes an answer artifact, asks for input on "ask", fails on "fail".',
    supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: options.streaming ?? true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [
      {
        id: 'answer',
        name: 'Answer questions',
        description: 'Answers a task in one artifact.',
        tags: ['test'],
        examples: [],
        inputModes: ['text'],
        outputModes: ['text'],
        securityRequirements: [],
      },
      {
        id: 'ask',
        name: 'Ask back',
        description: 'Asks which format the answer should have.',
        tags: ['test'],
        examples: [],
        inputModes: ['text'],
        outputModes: ['text'],
        securityRequirements: [],
      },
    ],
    documentationUrl: '',
    signatures: [],
  } as AgentCard;
  requestHandler = handler();
  transport = new JsonRpcTransportHandler(requestHandler);
  return {
    url,
    cardUrl: `${url}/.well-known/agent-card.json`,
    log: executor.log,
    headersSeen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
