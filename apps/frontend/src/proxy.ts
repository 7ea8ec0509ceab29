import { NextResponse, type NextRequest } from 'next/server';

/**
 * The backend's session cookie (better-auth, prefix `baton`); behind https it carries the
 * `__Secure-` prefix. httpOnly, so only the server side of the web app can see it.
 */
export const SESSION_COOKIES = ['baton.session_token', '__Secure-baton.session_token'];

/**
 * Every app page needs a session: without the cookie, the visitor goes to sign in and comes
 * back here afterwards (`next`). Only the cookie's presence is checked — an expired or
 * revoked session still reaches the page, whose first API call answers 401 and sends the
 * visitor to sign in (api-client.ts). The API checks every request itself either way.
 */
export function proxy(request: NextRequest) {
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const target = request.nextUrl.clone();
  target.pathname = '/sign-in';
  target.search = '';
  if (pathname !== '/') target.searchParams.set('next', `${pathname}${search}`);
  return NextResponse.redirect(target);
}

// The app's pages. Sign-in, setup, invite links, /api (the backend decides) and Next's
// own files are open to everyone.
export const config = { matcher: ['/', '/w/:path*'] };
