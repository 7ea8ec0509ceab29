import { serve } from '@hono/node-server';
import { Hono } from 'hono';

export interface ProviderStub {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** The Authorization header of every request it received. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A stand-in provider on a loopback port: answers chat completions with `respond`, and
 * records the key each request carried.
 */
export async function startProviderStub(respond: (c: { apiKey: string | undefined }) => Response): Promise<ProviderStub> {
  const authorizations: (string | undefined)[] = [];
  const app = new Hono().all('*', (c) => {
    const authorization = c.req.header('authorization');
    authorizations.push(authorization);
    return respond({ apiKey: authorization?.replace(/^Bearer /, '') });
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        baseURL: `http://127.0.0.1:${info.port}/v1`,
        authorizations,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}

/** A provider's JSON error, as OpenAI-compatible servers send it. */
export const jsonError = (status: number, message: string) =>
  new Response(JSON.stringify({ error: { message, type: 'invalid_request_error' } }), { status, headers: { 'content-type': 'application/json' } });
