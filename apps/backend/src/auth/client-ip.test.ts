import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-ip';

describe('parseTrustedProxies (BATON_TRUSTED_PROXIES)', () => {
  it('is loopback when unset or empty, nothing with "none", and takes addresses and CIDR ranges', () => {
    const loopback = parseTrustedProxies(undefined);
    expect(clientAddress('127.0.0.1', '198.51.100.1', loopback)).toBe('198.51.100.1');
    expect(clientAddress('::1', '198.51.100.1', parseTrustedProxies(''))).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', '198.51.100.1', parseTrustedProxies('none'))).toBe('127.0.0.1');
    const listed = parseTrustedProxies('10.0.0.0/8, 192.0.2.7 fd00::/8');
    expect(clientAddress('10.1.2.3', '198.51.100.1', listed)).toBe('198.51.100.1');
    expect(clientAddress('192.0.2.7', '198.51.100.1', listed)).toBe('198.51.100.1');
    expect(clientAddress('fd00::5', '198.51.100.1', listed)).toBe('198.51.100.1');
    // Listing proxies replaces the default: loopback is then trusted only if listed.
    expect(clientAddress('127.0.0.1', '198.51.100.1', listed)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '198.51.100.1', parseTrustedProxies('loopback,10.0.0.0/8'))).toBe('198.51.100.1');
  });

  it('refuses an entry that is no address or range, naming it', () => {
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/BATON_TRUSTED_PROXIES: "10.0.0.0\/33"/);
    expect(() => parseTrustedProxies('proxy.internal')).toThrow(/"proxy.internal"/);
  });
});

describe('clientAddress', () => {
  const trusted = parseTrustedProxies('loopback, 10.0.0.0/8');

  it('is the peer itself when the peer is no trusted proxy, whatever it forwards', () => {
    expect(clientAddress('198.51.100.9', '203.0.113.1', trusted)).toBe('198.51.100.9');
    expect(clientAddress('::ffff:198.51.100.9', '203.0.113.1', trusted)).toBe('198.51.100.9');
  });

  it('behind trusted proxies, is the nearest hop that is not one (what the client wrote before it is ignored)', () => {
    expect(clientAddress('127.0.0.1', 'spoofed-1, 192.0.2.55, 203.0.113.7, 10.0.0.2', trusted)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.7', trusted)).toBe('203.0.113.7');
    // Nothing forwarded: the proxy itself is the client (a request it made on its own).
    expect(clientAddress('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    // A hop that is no address: the last real one counts.
    expect(clientAddress('127.0.0.1', '203.0.113.7, not-an-ip', trusted)).toBe('127.0.0.1');
    // Every hop a proxy: the farthest one.
    expect(clientAddress('127.0.0.1', '10.0.0.3, 10.0.0.2', trusted)).toBe('10.0.0.3');
  });
});
