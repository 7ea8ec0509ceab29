import { errorCodes, NUL_MESSAGE } from '@baton/schemas';
import type { Context } from 'hono';
import { AppError } from '../errors';
import { errorBody } from '../http/errors';
import { CLIENT_IP_HEADER, clientIp, isFromTrustedProxy, type TrustedProxies } from './client-ip';
import { FORWARDED_ORIGIN_HEADERS } from './same-origin';
import { SSO_SIGN_UP_HEADER } from './sso';

/** How Baton hands a request to better-auth and its answer back to the client. */

/**
 * better-auth's errors (`{ code: "INVALID_EMAIL_OR_PASSWORD", message }`) in Baton's shape
 * (`{ error: { code: "invalid_email_or_password", message } }`), so every client reads
 * every error of the API the same way.
 */
export async function inBatonShape(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const body = (await res
    .clone()
    .json()
    .catch(() => ({}))) as { code?: unknown; message?: unknown };
  let code = typeof body.code === 'string' && body.code ? body.code.toLowerCase() : `http_${res.status}`;
  let message = typeof body.message === 'string' && body.message ? body.message : res.statusText || 'request failed';
  if (res.status === 429) {
    code = errorCodes.tooManyRequests;
    const wait = res.headers.get('x-retry-after');
    message = `too many attempts: try again${wait ? ` in ${wait} seconds` : ' in a minute'}`;
  }
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(errorBody(code, message)), { status: res.status, headers });
}

/**
 * The request as better-auth receives it: Baton states the client's address and the origin it
 * addressed, no one else. `path` sends it to another of better-auth's routes than the one the
 * client called (a Baton route in front of it); `internal` adds headers only Baton may set.
 */
export function forAuth(
  c: Context,
  trusted: TrustedProxies,
  body?: string,
  { path, internal = {} }: { path?: string; internal?: Record<string, string> } = {},
): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.delete(CLIENT_IP_HEADER);
  headers.delete(SSO_SIGN_UP_HEADER);
  for (const [name, value] of Object.entries(internal)) headers.set(name, value);
  // Browsers send Origin with every POST; a request without it is a script, not a page
  // another site could forge. Node's fetch adds Fetch Metadata headers of its own
  // (Sec-Fetch-Mode: cors), for which better-auth would demand an Origin a script does not
  // have: without Origin and Referer they mean nothing, so they are not passed on.
  if (!headers.has('origin') && !headers.has('referer')) {
    for (const name of ['sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest']) headers.delete(name);
  }
  const ip = clientIp(c, trusted);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  // better-auth judges Origin against the origin the request addressed (better-auth.ts): a
  // forwarded one counts only when a trusted proxy forwarded it, like X-Forwarded-For.
  if (!isFromTrustedProxy(c, trusted)) for (const name of FORWARDED_ORIGIN_HEADERS) headers.delete(name);
  if (body !== undefined) headers.delete('content-length');
  const url = new URL(c.req.raw.url);
  if (path) url.pathname = path;
  return new Request(url, {
    method: c.req.method,
    headers,
    body: body ?? (c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : c.req.raw.body),
    // @ts-expect-error Node's fetch needs this to forward a streamed body.
    duplex: 'half',
  });
}

/** Where in a JSON value a string holds U+0000, which Postgres cannot store (nor compare). */
function nulBytePath(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulBytePath(item, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * The body of a route Baton passes to better-auth without a schema of its own: a NUL byte in
 * any string is a 400 naming it, as on every route, not a failed query (500) in there.
 */
export async function passThroughBody(c: Context): Promise<string | undefined> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return undefined;
  const text = await c.req.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    return text; // not JSON: better-auth answers that itself
  }
  const path = nulBytePath(parsed);
  if (path) throw new AppError(400, errorCodes.invalidRequest, `${path.join('.') || 'body'}: ${NUL_MESSAGE}`, [{ path, message: NUL_MESSAGE }]);
  return text;
}
