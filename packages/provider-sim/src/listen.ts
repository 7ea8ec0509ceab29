// The simulated provider on a real socket: what Baton's tests add as a provider.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { SimBehaviour } from './behaviour';
import { createProviderSimApp, type ProviderSimOptions, type ProviderSimState } from './app';

export interface ProviderSimulator extends ProviderSimState {
  /** Origin, e.g. `http://127.0.0.1:4030`. */
  url: string;
  /** A Baton provider's base URL: `${url}/v1`. */
  baseURL: string;
  port: number;
  close(): Promise<void>;
}

export interface ProviderSimServerOptions extends ProviderSimOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  hostname?: string;
}

export function startProviderSimulator(options: ProviderSimServerOptions = {}): Promise<ProviderSimulator> {
  const { app, requests, setBehaviour } = createProviderSimApp(options);
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname }, (info: AddressInfo) => {
      server.off('error', reject);
      const host = hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
      const url = `http://${host}:${info.port}`;
      resolve({
        url,
        baseURL: `${url}/v1`,
        port: info.port,
        requests,
        setBehaviour: (b: SimBehaviour) => setBehaviour(b),
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            // A silent stream would otherwise hold close() for as long as it is silent.
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
