import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { OWNER } from './support/accounts';

/*
 * The web app's server is the proxy in front of the backend, which believes what it says
 * about the client (BATON_TRUSTED_PROXIES; only 127.0.0.1 in this suite, so another loopback
 * address can play a browser). Next's own rewrite passes a client's X-Forwarded-For on as it
 * is; the server (server.mjs) adds the address the request came from. So what a client claims
 * neither names it to the sign-in limit nor ends up as its session's address.
 */
function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', localAddress: '127.0.0.2', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      const cookie = res.headers['set-cookie']?.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('baton.session_token='));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test('a client’s own X-Forwarded-For does not name it to the backend: the address it came from does', async ({ baseURL, playwright }) => {
  const signIn = await post(`${baseURL}/api/auth/sign-in/email`, { email: OWNER.email, password: OWNER.password }, { 'x-forwarded-for': '198.51.100.77' });
  expect(signIn.status).toBe(200);
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: signIn.cookie! } });
  const sessions = (await (await api.get('/api/auth/list-sessions')).json()) as { ipAddress: string | null }[];
  const addresses = sessions.map((s) => s.ipAddress);
  expect(addresses).toContain('127.0.0.2');
  expect(addresses).not.toContain('198.51.100.77');
  await api.dispose();
});

// Node's default is 5 s: a client that reused an idle socket just as the server closed it got
// ECONNRESET (the e2e request context did). server.mjs keeps them 65 s, like the backend.
test('idle connections to the web app’s server stay open 65 s', async ({ baseURL }) => {
  const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
    httpRequest(`${baseURL}/icon.svg`, (res) => {
      res.resume();
      resolve(res.headers['keep-alive']?.toString());
    })
      .on('error', reject)
      .end();
  });
  expect(keepAlive).toBe('timeout=65');
});
