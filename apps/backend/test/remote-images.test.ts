import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

// The web app's "Load image" button: the page may load images only from its own origin, so a
// remote image a person asked to see comes through the backend. A fixture host serves what
// an image host (or a hostile one) might.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const seen: { url?: string; headers: IncomingHttpHeaders }[] = [];
let host: Server;
let origin: string;

beforeAll(async () => {
  host = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    if (req.url?.startsWith('/pic.png')) return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/page.svg')
      return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    if (req.url === '/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 6; i++) res.write(chunk);
      return res.end();
    }
    if (req.url === '/moved.png') return res.writeHead(302, { location: '/pic.png' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(() => host?.close());

describe('GET /api/image (remote images a person asked to see)', () => {
  const t = useTestApp({ allowPrivateUrls: true });
  const load = (url: string, init?: RequestInit) => t.request(`/api/image?url=${encodeURIComponent(url)}`, init);

  it("passes a PNG on, typed, never sniffed or run as a page, without the person's cookie", async () => {
    const res = await load(`${origin}/pic.png?q=the+conversation`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    const request = seen.find((r) => r.url === '/pic.png?q=the+conversation')!;
    expect(request.headers.cookie).toBeUndefined();
    expect(request.headers.authorization).toBeUndefined();
  });

  it.each([
    ['an SVG (a document that can script)', '/page.svg', /not a PNG, JPEG, GIF, WebP or AVIF image \(image\/svg\+xml\)/],
    ['an HTML page', '/page.html', /not a PNG, JPEG, GIF, WebP or AVIF image \(text\/html\)/],
    ['more than 5 MiB', '/huge.png', /larger than 5 MiB/],
    ['a redirect (never followed)', '/moved.png', /redirect/],
    ['a 404', '/missing.png', /HTTP 404/],
  ])('refuses %s with a 502 that says why', async (_what, path, reason) => {
    const res = await load(`${origin}${path}`);
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body.error.code).toBe('unavailable');
    expect(body.error.message).toMatch(reason);
  });

  it('refuses cloud metadata addresses whatever the private-address switch says, before connecting', async () => {
    const res = await load('http://169.254.169.254/latest/meta-data/iam.png');
    expect(res.status).toBe(502);
    expect((await json(res)).error.message).toMatch(/link-local, cloud metadata/);
  });

  it.each([
    ['no url', ''],
    ['a javascript: URL', '?url=javascript%3Aalert(1)'],
    ['a file: URL', '?url=file%3A%2F%2F%2Fetc%2Fpasswd'],
    ['credentials in the URL', `?url=${encodeURIComponent('http://user:pw@example.com/a.png')}`],
  ])('answers 400 for %s', async (_what, query) => {
    const res = await t.request(`/api/image${query}`);
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('invalid_request');
  });

  it('is for signed-in people only', async () => {
    const res = await t.anonymous(`/api/image?url=${encodeURIComponent(`${origin}/pic.png`)}`);
    expect(res.status).toBe(401);
  });
});
