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

  it('guards the app pages and leaves sign-in, setup, invite links and the API alone', () => {
    const matches = (url: string) => unstable_doesMiddlewareMatch({ config, url });
    expect(matches('/')).toBe(true);
    expect(matches('/w/default')).toBe(true);
    expect(matches('/w/default/settings/members')).toBe(true);
    for (const open of ['/sign-in', '/setup', '/invite/abc', '/api/me', '/_next/static/chunk.js']) {
      expect(matches(open), open).toBe(false);
    }
  });
});
