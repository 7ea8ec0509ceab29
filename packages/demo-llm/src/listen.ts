// Serving the demo model on a real socket, for the standalone server, benchmarks and tests.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createDemoLlmApp } from './app';

export interface DemoLlmServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: tests and benchmarks should not be reachable from the network. */
  hostname?: string;
  delayMs?: number;
}

export interface DemoLlmServer {
  /** Origin, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** What to pass to `createOpenAI({ baseURL })`: `${url}/v1`. */
  baseURL: string;
  port: number;
  close(): Promise<void>;
}

export function startDemoLlmServer(options: DemoLlmServerOptions = {}): Promise<DemoLlmServer> {
  const app = createDemoLlmApp(options.delayMs === undefined ? {} : { delayMs: options.delayMs });
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname }, (info: AddressInfo) => {
      server.off('error', reject);
      const host = hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname;
      const url = `http://${host}:${info.port}`;
      resolve({
        url,
        baseURL: `${url}/v1`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            // Open keep-alive and streaming connections would otherwise hold close() until they end.
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
