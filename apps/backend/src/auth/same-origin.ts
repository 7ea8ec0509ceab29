/**
 * The origin the browser addressed: the web app's server forwards `/api` with
 * `X-Forwarded-Host`/`-Proto`; direct requests name it in `Host`. A page on another site
 * cannot set these headers on a request it sends, so comparing `Origin` with this origin
 * tells a same-site request from a cross-site one.
 */
export function requestOrigin(request: Request): string | undefined {
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  if (!host) return undefined;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || new URL(request.url).protocol.replace(':', '');
  return `${proto}://${host}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request that carries a session cookie was sent by another site (CSRF). Browsers
 * send `Origin` on every cross-site request that can change state, and `Sec-Fetch-Site`
 * says outright where it came from; a client that sends neither is not a browser page.
 */
export function isCrossSiteWrite(request: Request, trusted: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  return origin !== requestOrigin(request) && !trusted.includes(origin);
}
