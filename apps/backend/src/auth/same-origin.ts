/** The headers a proxy names the addressed origin with; believed only from a trusted proxy. */
export const FORWARDED_ORIGIN_HEADERS = ['x-forwarded-host', 'x-forwarded-proto'] as const;

/**
 * The origin the browser addressed: the web app's server forwards `/api` with
 * `X-Forwarded-Host`/`-Proto`; direct requests name it in `Host`. A page on another site
 * cannot set these headers on a request it sends, so comparing `Origin` with this origin
 * tells a same-site request from a cross-site one. The forwarded headers count only when
 * `forwarded` says the peer is a trusted proxy (client-ip.ts): anyone else could name any
 * origin in them, the one its `Origin` claims included.
 */
export function requestOrigin(request: Request, forwarded: boolean): string | undefined {
  const header = (name: (typeof FORWARDED_ORIGIN_HEADERS)[number]) => (forwarded ? request.headers.get(name)?.split(',')[0]?.trim() : undefined);
  const host = header('x-forwarded-host') || request.headers.get('host');
  if (!host) return undefined;
  const proto = header('x-forwarded-proto') || new URL(request.url).protocol.replace(':', '');
  return `${proto}://${host}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request that carries a session cookie was sent by another site (CSRF). Browsers
 * send `Origin` on every cross-site request that can change state, and `Sec-Fetch-Site`
 * says outright where it came from; a client that sends neither is not a browser page.
 */
export function isCrossSiteWrite(request: Request, trusted: readonly string[], forwarded: boolean): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  return origin !== requestOrigin(request, forwarded) && !trusted.includes(origin);
}
