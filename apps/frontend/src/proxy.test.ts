import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { config, proxy } from './proxy';

const origin = 'http://127.0.0.1:3000';
const visit = (path: string, cookie?: string) => proxy(new NextRequest(`${origin}${path}`, { headers: cookie ? { cookie } : {} }));

describe('the sign-in guard', () => {
  it('sends a visitor without a session to sign in, and back to the page afterwards', () => {
    const res = visit('/w/default/chat/chat_1?x=1');
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get('location')!);
    expect(location.pathname).toBe('/sign-in');
    expect(location.searchParams.get('next')).toBe('/w/default/chat/chat_1?x=1');
  });

  it('sends `/` to sign in without a `next`', () => {
    expect(new URL(visit('/').headers.get('location')!).search).toBe('');
  });

  it('lets a visitor with the session cookie through (plain and __Secure- named)', () => {
    expect(visit('/w/default', 'baton.session_token=abc').headers.get('location')).toBeNull();
    expect(visit('/w/default', '__Secure-baton.session_token=abc').headers.get('location')).toBeNull();
    expect(visit('/w/default', 'other=abc').status).toBe(307);
  });

  it('guards the app pages and leaves sign-in, setup, invite and share links open', () => {
    for (const open of ['/sign-in', '/setup', '/invite/abc', '/shared/abc']) {
      const res = visit(open);
      expect(res.headers.get('location'), open).toBeNull();
      expect(res.headers.get('content-security-policy'), open).toContain("script-src 'self' 'nonce-");
    }
  });
});

describe('the Content-Security-Policy', () => {
  it('goes with every page (a redirect too), with a fresh nonce that Next and the layout read from the request', () => {
    const first = visit('/w/default', 'baton.session_token=abc');
    const second = visit('/w/default', 'baton.session_token=abc');
    const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonceOf(first)).toBeTruthy();
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    // NextResponse.next({ request: { headers } }) hands the request headers on as x-middleware-request-*.
    expect(first.headers.get('x-middleware-request-x-nonce')).toBe(nonceOf(first));
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(visit('/w/default').headers.get('content-security-policy')).toContain("img-src 'self' data: blob:");
  });

  it("runs on every page and never on the API, the OpenAI-compatible API or Next's static files", () => {
    const matches = (url: string) => unstable_doesMiddlewareMatch({ config, url });
    for (const page of ['/', '/w/default', '/w/default/settings/members', '/sign-in', '/setup', '/invite/abc', '/apix']) {
      expect(matches(page), page).toBe(true);
    }
    for (const other of ['/api/me', '/api', '/v1/models', '/_next/static/chunk.js', '/_next/image?url=x', '/favicon.ico', '/icon.svg']) {
      expect(matches(other), other).toBe(false);
    }
  });
});
