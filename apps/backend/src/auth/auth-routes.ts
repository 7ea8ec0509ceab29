import { signInSchema, signUpSchema, updateUserSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { Database } from '../db/client';
import { errorResponses, jsonBody } from '../http/validation';
import { inBetterAuth } from './async-context';
import type { BetterAuth } from './better-auth';
import type { TrustedProxies } from './client-ip';
import { forAuth, inBatonShape, passThroughBody } from './forwarding';
import { passwordRoutes } from './password-routes';
import { type SessionCache, sessionCookieValue } from './session-cache';
import { applySignUpGrant, decideSignUp, deleteAccount, signUpSerializer } from './sign-up';
import type { SsoSettings, SsoSignUps } from './sso';
import { ssoRoutes } from './sso-routes';

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
  settings: { openSignup: boolean; trustedProxies: TrustedProxies; mail: boolean; sso?: SsoSettings; ssoSignUps: SsoSignUps; secureCookies: boolean },
) {
  const { openSignup, trustedProxies, mail, sso, ssoSignUps, secureCookies } = settings;
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
      .route('/', passwordRoutes(handle, sessions, { trustedProxies, mail }))
      .route('/', ssoRoutes(handle, { db, sso, ssoSignUps, openSignup, trustedProxies, secureCookies, serialize }))
      .on(['GET', 'POST'], '/*', async (c) => inBatonShape(await handle(forAuth(c, trustedProxies, await passThroughBody(c)))))
  );
}
