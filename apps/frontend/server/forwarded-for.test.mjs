import { describe, expect, it } from 'vitest';
import { appendForwardedFor } from './forwarded-for.mjs';

// The web app's server is the proxy in front of the backend: it must name the address each
// request came from, after whatever the request claimed, as proxies do (the backend, which
// trusts this server, reads the hops from the right). Next's own /api rewrite passes the
// client's X-Forwarded-For on unchanged and adds nothing.
describe('appendForwardedFor', () => {
  it('adds the peer as the only hop when the request named none', () => {
    const headers = {};
    appendForwardedFor(headers, '203.0.113.7');
    expect(headers['x-forwarded-for']).toBe('203.0.113.7');
  });

  it('adds the peer after what the client (or a proxy before this one) wrote', () => {
    const headers = { 'x-forwarded-for': '10.9.9.9, 198.51.100.1' };
    appendForwardedFor(headers, '::ffff:203.0.113.7');
    expect(headers['x-forwarded-for']).toBe('10.9.9.9, 198.51.100.1, ::ffff:203.0.113.7');
  });

  it('keeps repeated headers, in order', () => {
    const headers = { 'x-forwarded-for': ['1.1.1.1', '2.2.2.2'] };
    appendForwardedFor(headers, '203.0.113.7');
    expect(headers['x-forwarded-for']).toBe('1.1.1.1, 2.2.2.2, 203.0.113.7');
  });

  it('without a peer address (a closed socket), says nothing rather than trust the claim', () => {
    const headers = { 'x-forwarded-for': '198.51.100.1' };
    appendForwardedFor(headers, undefined);
    expect(headers['x-forwarded-for']).toBeUndefined();
  });
});
