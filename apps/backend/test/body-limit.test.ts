import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/test-app';

const t = useTestApp();
const path = '/api/workspaces/default/agents';
const twoMiB = JSON.stringify({ name: 'x', description: 'y'.repeat(2 * 1024 * 1024) });

/**
 * A raw node:http client that streams the body in pieces, as a slow uploader would; without
 * a length the body goes chunked and the server only finds out it is too big by reading it.
 */
function streamedPost(
  url: string,
  body: string,
  { sendLength }: { sendLength: boolean },
): Promise<{ status: number; connection: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(sendLength ? { 'content-length': Buffer.byteLength(body) } : {}) };
    const req = httpRequest(url, { method: 'POST', headers });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const chunk = 64 * 1024;
    let offset = 0;
    const writeMore = () => {
      while (offset < body.length) {
        const piece = body.slice(offset, offset + chunk);
        offset += chunk;
        if (!req.write(piece)) return void req.once('drain', writeMore);
      }
      req.end();
    };
    writeMore();
  });
}

describe('a body over 1 MiB over a real socket', () => {
  it('reaches a fetch client as a readable 413, every time', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: twoMiB });
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.json()).toEqual({ error: { code: 'payload_too_large', message: expect.stringContaining('1 MiB') } });
    }
  });

  it.each([true, false])('reaches a streaming node:http client as a readable 413 (Content-Length sent: %s)', async (sendLength) => {
    for (let i = 0; i < 5; i++) {
      const res = await streamedPost(`${t.baseUrl}${path}`, twoMiB, { sendLength });
      expect(res.status).toBe(413);
      expect(res.connection).toBe('close');
      expect(JSON.parse(res.text).error.code).toBe('payload_too_large');
    }
  });

  it('still answers the next request on a fresh connection', async () => {
    const res = await fetch(`${t.baseUrl}/api/health`);
    expect(res.status).toBe(200);
  });
});
