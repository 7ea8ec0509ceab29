import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, newNonce } from './lib/content-security-policy';
import { parseImageHosts } from './lib/image-hosts';

/**
 * The backend's session cookie (better-auth, prefix `baton`); behind https it carries the
 * `__Secure-` prefix. httpOnly, so only the server side of the web app can see it.
 */
export const SESSION_COOKIES = ['baton.session_token', '__Secure-baton.session_token'];

/** The app's pages, which need a session; sign-in, setup, invite links and shared chats (`/shared/<token>`) are open to everyone. */
const isAppPage = (pathname: string) => pathname === '/' || pathname === '/w' || pathname.startsWith('/w/');

/**
 * Every page gets a Content-Security-Policy with a fresh nonce (content-security-policy.ts).
 * Next reads the nonce from the request's CSP header and puts it on its own scripts; the
 * root layout reads `x-nonce` for next-themes' inline script. So every page renders per
 * request (the root layout reads the request's headers).
 *
 * Every app page also needs a session: without the cookie, the visitor goes to sign in and
 * comes back here afterwards (`next`). Only the cookie's presence is checked — an expired or
 * revoked session still reaches the page, whose first API call answers 401 and sends the
 * visitor to sign in (api-client.ts). The API checks every request itself either way.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const nonce = newNonce();
  const csp = contentSecurityPolicy({
    nonce,
    dev: process.env.NODE_ENV === 'development',
    // Read at each request (the proxy runs on Node.js): the operator sets it where the frontend runs.
    imageHosts: parseImageHosts(process.env.BATON_IMAGE_HOSTS),
  });
  let response: NextResponse;
  if (isAppPage(pathname) && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const target = request.nextUrl.clone();
    target.pathname = '/sign-in';
    target.search = '';
    if (pathname !== '/') target.searchParams.set('next', `${pathname}${search}`);
    response = NextResponse.redirect(target);
  } else {
    const headers = new Headers(request.headers);
    headers.set('x-nonce', nonce);
    headers.set('content-security-policy', csp);
    response = NextResponse.next({ request: { headers } });
  }
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

// Every page. The API (the backend decides, and answers JSON, SSE or images), the
// OpenAI-compatible API and Next's static files are left alone.
export const config = { matcher: ['/((?!api/|api$|v1/|v1$|_next/static/|_next/image|favicon\\.ico|icon\\.svg).*)'] };
