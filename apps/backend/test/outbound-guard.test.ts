import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedPortError, createGuardedFetch, OutboundRefusedError, RedirectRefusedError, type Resolve } from '../src/outbound/guarded-fetch';

// Only loopback servers are ever connected to: refused addresses are refused before any
// connection, which is what these tests prove by counting requests.
interface Local {
  server: Server;
  port: number;
  requests: { host?: string; url?: string }[];
}

async function listen(hostname: string): Promise<Local> {
  const requests: Local['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ host: req.headers.host, url: req.url });
    if (req.url === '/redirect-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (req.url === '/redirect-here') return res.writeHead(307, { location: '/ok' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal page');
  });
  await new Promise<void>((resolve) => server.listen(0, hostname, resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

let v4: Local;
let v6: Local;
beforeAll(async () => {
  [v4, v6] = await Promise.all([listen('127.0.0.1'), listen('::1')]);
});
afterAll(() => {
  v4?.server.close();
  v6?.server.close();
});

/** A resolver with fixed answers, counting its calls (names in the .test TLD never reach real DNS). */
function fakeResolver(answers: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve: Resolve = (hostname, callback) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return { resolve, calls };
}

async function refusal(fetchFn: typeof fetch, url: string): Promise<unknown> {
  try {
    const res = await fetchFn(url);
    return `not refused: HTTP ${res.status}`;
  } catch (err) {
    return err;
  }
}

describe('guarded fetch without BATON_ALLOW_PRIVATE_URLS', () => {
  it('refuses loopback, unspecified, link-local and metadata addresses, however they are written, before connecting', async () => {
    const guarded = createGuardedFetch({ allowPrivateAddresses: false });
    const p = v4.port;
    const urls = [
      `http://127.0.0.1:${p}/v1/chat/completions`,
      `http://localhost:${p}/`,
      `http://LOCALHOST:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.0.0.1:${p}/`,
      `http://127.1:${p}/`,
      `http://[::1]:${v6.port}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://0.0.0.0:${p}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[fe80::1]/',
    ];
    for (const url of urls) {
      const err = await refusal(guarded, url);
      expect(err, url).toBeInstanceOf(OutboundRefusedError);
    }
    expect(v4.requests).toEqual([]);
    expect(v6.requests).toEqual([]);
  });

  it('checks the addresses a name resolves to: any refused address refuses the name', async () => {
    const { resolve, calls } = fakeResolver({
      'internal.test': ['127.0.0.1'],
      'mixed.test': ['93.184.215.14', '127.0.0.1'],
      'metadata.test': ['169.254.169.254'],
    });
    const guarded = createGuardedFetch({ allowPrivateAddresses: false, resolve });
    for (const name of ['internal.test', 'mixed.test', 'metadata.test']) {
      const err = await refusal(guarded, `http://${name}:${v4.port}/`);
      expect(err, name).toBeInstanceOf(OutboundRefusedError);
    }
    expect(calls).toEqual(['internal.test', 'mixed.test', 'metadata.test']);
    expect(v4.requests).toEqual([]);
  });

  it('says why in words a person can act on, naming the switch for private addresses but not the address', async () => {
    const guarded = createGuardedFetch({ allowPrivateAddresses: false });
    const loopback = (await refusal(guarded, `http://127.0.0.1:${v4.port}/`)) as Error;
    expect(loopback.message).toMatch(/BATON_ALLOW_PRIVATE_URLS=true/);
    expect(loopback.message).not.toContain('127.0.0.1');
    const metadata = (await refusal(guarded, 'http://169.254.169.254/')) as Error;
    expect(metadata.message).toMatch(/never allowed/);
    expect(metadata.message).not.toContain('BATON_ALLOW_PRIVATE_URLS');
  });
});

describe('guarded fetch with BATON_ALLOW_PRIVATE_URLS=true', () => {
  it('connects to the address it checked: one resolution per connection, the one the socket uses', async () => {
    // "internal.test" exists only in this resolver: reaching the server proves the socket used it.
    const { resolve, calls } = fakeResolver({ 'internal.test': ['127.0.0.1'] });
    const guarded = createGuardedFetch({ allowPrivateAddresses: true, resolve });
    const res = await guarded(`http://internal.test:${v4.port}/ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('internal page');
    expect(calls).toEqual(['internal.test']);
    expect(v4.requests.at(-1)).toEqual({ host: `internal.test:${v4.port}`, url: '/ok' });
    expect((await guarded(`http://[::1]:${v6.port}/ok`)).status).toBe(200);
  });

  it("says a blocked port is blocked, not unreachable (undici refuses the Fetch standard's bad ports before connecting)", async () => {
    const guarded = createGuardedFetch({ allowPrivateAddresses: true });
    for (const port of [4190, 6000]) {
      const err = await guarded(`http://127.0.0.1:${port}/v1/models`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlockedPortError);
      expect((err as Error).message).toMatch(new RegExp(`^Port ${port} is one that web clients never connect to.*serve it on another port\\.$`));
    }
  });

  it('still refuses link-local and metadata addresses, by literal or by name', async () => {
    const { resolve } = fakeResolver({ 'metadata.test': ['169.254.169.254'], 'ec2-v6.test': ['fd00:ec2::254'] });
    const guarded = createGuardedFetch({ allowPrivateAddresses: true, resolve });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.test/',
      'http://ec2-v6.test/',
      'http://0.0.0.0:80/',
    ]) {
      expect(await refusal(guarded, url), url).toBeInstanceOf(OutboundRefusedError);
    }
  });

  it('never follows a redirect, to a refused address or anywhere else', async () => {
    const guarded = createGuardedFetch({ allowPrivateAddresses: true });
    const before = v4.requests.length;
    const toMetadata = await refusal(guarded, `http://127.0.0.1:${v4.port}/redirect-metadata`);
    expect(toMetadata).toBeInstanceOf(RedirectRefusedError);
    expect((toMetadata as Error).message).toMatch(/HTTP 302/);
    const toSameServer = await refusal(guarded, `http://127.0.0.1:${v4.port}/redirect-here`);
    expect(toSameServer).toBeInstanceOf(RedirectRefusedError);
    expect(v4.requests.slice(before).map((r) => r.url)).toEqual(['/redirect-metadata', '/redirect-here']);
  });
});
