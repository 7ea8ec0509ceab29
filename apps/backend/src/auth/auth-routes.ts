import { errorCodes, NUL_MESSAGE, signInSchema, signUpSchema, updateUserSchema } from '@baton/schemas';
import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { Database } from '../db/client';
import { AppError } from '../errors';
import { errorBody } from '../http/errors';
import { errorResponses, jsonBody } from '../http/validation';
import { inBetterAuth } from './async-context';
import type { BetterAuth } from './better-auth';
import { CLIENT_IP_HEADER, clientIp, isFromTrustedProxy, type TrustedProxies } from './client-ip';
import { FORWARDED_ORIGIN_HEADERS } from './same-origin';
import { type SessionCache, sessionCookieValue } from './session-cache';
import { applySignUpGrant, decideSignUp, deleteAccount, signUpSerializer } from './sign-up';

/**
 * better-auth's errors (`{ code: "INVALID_EMAIL_OR_PASSWORD", message }`) in Baton's shape
 * (`{ error: { code: "invalid_email_or_password", message } }`), so every client reads
 * every error of the API the same way.
 */
async function inBatonShape(res: Response): Promise<Response> {
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

/** The request as better-auth receives it: Baton states the client's address and the origin it addressed, no one else. */
function forAuth(c: Context, trusted: TrustedProxies, body?: string): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.delete(CLIENT_IP_HEADER);
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
  return new Request(c.req.raw.url, {
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
async function passThroughBody(c: Context): Promise<string | undefined> {
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

/**
 * better-auth's routes under /api/auth (sign-up, sign-in, sign-out, session), with Baton's
 * rule for who may sign up: the first account becomes the owner, then only invited people
 * (`inviteToken` in the body) unless open sign-up is on.
 */
export function authRoutes(
  db: Database,
  kind: 'pglite' | 'postgres',
  auth: BetterAuth,
  sessions: SessionCache,
  settings: { openSignup: boolean; trustedProxies: TrustedProxies },
) {
  const { openSignup, trustedProxies } = settings;
  const serialize = signUpSerializer(db, kind);
  const handle = (request: Request) => inBetterAuth(() => auth.handler(request));
  return (
    new Hono()
      // Checked with Baton's schemas first (sign-up, sign-in, update-user): a NUL byte or a
      // 10 MB name is a 400 naming the field, not a failed insert inside better-auth.
      .post(
        '/sign-in/email',
        describeRoute({
          tags: ['Account'],
          summary: 'Sign in with email and password (public)',
          description:
            'Sets the session cookie (`baton.session_token`, httpOnly, SameSite=Lax). Repeated attempts from one address are slowed down: `429 too_many_requests`.',
          security: [],
          responses: { 200: { description: '`{ user, token, redirect }` and the session cookie' }, 400: errorResponses[400], 401: errorResponses[401] },
        }),
        ...jsonBody(signInSchema),
        async (c) => inBatonShape(await handle(forAuth(c, trustedProxies, JSON.stringify(c.req.valid('json'))))),
      )
      .post(
        '/sign-up/email',
        describeRoute({
          tags: ['Account'],
          summary: 'Create an account (public): the owner on a fresh instance, then by invitation',
          description:
            'The first account of an instance owns the `default` workspace. After that, sign-up needs an `inviteToken` (from an invite link; the account joins its workspace with its role) unless the server runs with `BATON_OPEN_SIGNUP=true` (the account gets a workspace of its own). Signs the new account in (session cookie).',
          security: [],
          responses: {
            200: { description: '`{ user, token }` and the session cookie' },
            400: errorResponses[400],
            403: errorResponses[403],
            404: errorResponses[404],
          },
        }),
        ...jsonBody(signUpSchema),
        async (c) => {
          const { inviteToken, ...signUp } = c.req.valid('json');
          return serialize(async () => {
            const grant = await decideSignUp(db, inviteToken, openSignup);
            const res = await handle(forAuth(c, trustedProxies, JSON.stringify(signUp)));
            if (!res.ok) return inBatonShape(res);
            const created = ((await res.clone().json()) as { user: { id: string; name: string } }).user;
            try {
              await applySignUpGrant(db, grant, created);
            } catch (err) {
              // An account without its workspace could never do anything: take it back.
              await deleteAccount(db, created.id);
              throw err;
            }
            return res;
          });
        },
      )
      .post(
        '/update-user',
        describeRoute({
          tags: ['Account'],
          summary: 'Change your name',
          description: '`{ name }` (1–200 characters after trimming, as at sign-up); any other field, `image` included, is refused.',
          responses: { 200: { description: '`{ status: true }`' }, 400: errorResponses[400], 401: errorResponses[401] },
        }),
        ...jsonBody(updateUserSchema),
        async (c) => inBatonShape(await handle(forAuth(c, trustedProxies, JSON.stringify(c.req.valid('json'))))),
      )
      .post('/sign-out', async (c) => {
        const cookie = sessionCookieValue(c.req.header('cookie'));
        const res = await handle(forAuth(c, trustedProxies));
        if (cookie && res.ok) sessions.forget(cookie);
        return inBatonShape(res);
      })
      .on(['GET', 'POST'], '/*', async (c) => inBatonShape(await handle(forAuth(c, trustedProxies, await passThroughBody(c)))))
  );
}
