import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce } from './content-security-policy';

const directives = (csp: string) => new Map(csp.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

describe("the web app's Content-Security-Policy", () => {
  it('runs only scripts with the nonce, loads images from this origin and the allow list only', () => {
    const csp = directives(contentSecurityPolicy({ nonce: 'abc123', dev: false, imageHosts: ['images.example.com', '*.cdn.example'] }));
    expect(csp.get('script-src')).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'images.example.com', '*.cdn.example']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
  });

  it("allows eval under `next dev` only (React's development stacks)", () => {
    expect(contentSecurityPolicy({ nonce: 'n', dev: true, imageHosts: [] })).toContain("'strict-dynamic' 'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: 'n', dev: false, imageHosts: [] })).not.toContain('unsafe-eval');
  });

  it('makes a different 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(atob(nonce)).toHaveLength(16);
  });
});
