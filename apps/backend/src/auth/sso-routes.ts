import { errorCodes, ssoSignInSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize as cookieHeader } from 'hono/utils/cookie';
import { describeRoute } from 'hono-openapi';
import type { Database } from '../db/client';
import { AppError } from '../errors';
import { errorResponses, jsonBody } from '../http/validation';
import { previewInvitation } from '../services/invitations';
import type { TrustedProxies } from './client-ip';
import { forAuth, inBatonShape, passThroughBody } from './forwarding';
import { decideSignUp, deleteAccount, type signUpSerializer } from './sign-up';
import { SSO_PROVIDER_ID, SSO_SIGN_UP_HEADER, type SsoSettings, type SsoSignUps } from './sso';

/** The invitation a single sign-on started from, kept for its callback (the provider sends the browser back with a GET). */
const INVITE_COOKIE = 'baton.sso_invite';
const CALLBACK_PATH = '/api/auth/callback';

interface SsoRouteSettings {
  db: Database;
  sso?: SsoSettings;
  ssoSignUps: SsoSignUps;
  openSignup: boolean;
  trustedProxies: TrustedProxies;
  secureCookies: boolean;
  serialize: ReturnType<typeof signUpSerializer>;
}

/**
 * Single sign-on with the operator's OpenID Connect provider, through better-auth's generic
 * OAuth plugin. A new account follows Baton's sign-up rules: an invite link it started from,
 * open sign-up, or the first account of the instance; anyone else is sent back to the
 * sign-in page with `?error=sign_up_refused`.
 */
export function ssoRoutes(handle: (request: Request) => Promise<Response>, settings: SsoRouteSettings) {
  const { db, sso, ssoSignUps, openSignup, trustedProxies, secureCookies, serialize } = settings;
  return new Hono()
    .post(
      '/sign-in/sso',
      describeRoute({
        tags: ['Account'],
        summary: 'Start single sign-on (public; needs BATON_OIDC_*)',
        description:
          "`{ next?, inviteToken? }` → `{ url }`: send the browser there (the provider's sign-in page). It comes back to `/api/auth/callback/oidc`, which signs it in and goes on to `next` (a path of the web app, default `/`), or to `/sign-in?error=<code>` (`sign_up_refused`: no account and no invitation; `account_not_linked`: a password account has that email). With `inviteToken`, a new account joins that invitation's workspace. `404` when single sign-on is not configured.",
        security: [],
        responses: { 200: { description: '`{ url, redirect: false }`' }, 400: errorResponses[400], 404: errorResponses[404] },
      }),
      ...jsonBody(ssoSignInSchema),
      async (c) => {
        if (!sso) throw new AppError(404, errorCodes.notFound, 'single sign-on is not configured on this server');
        const { next, inviteToken } = c.req.valid('json');
        if (inviteToken) await previewInvitation(db, inviteToken);
        const body = {
          provider: SSO_PROVIDER_ID,
          callbackURL: next ?? '/',
          errorCallbackURL: inviteToken ? `/invite/${encodeURIComponent(inviteToken)}` : '/sign-in',
          disableRedirect: true,
        };
        const res = await inBatonShape(await handle(forAuth(c, trustedProxies, JSON.stringify(body), { path: '/api/auth/sign-in/social' })));
        if (!res.ok) return res;
        const out = new Response(res.body, res);
        // Ten minutes to sign in at the provider; only the callback path ever receives it.
        const options = { path: CALLBACK_PATH, httpOnly: true, sameSite: 'Lax' as const, secure: secureCookies };
        out.headers.append('set-cookie', cookieHeader(INVITE_COOKIE, inviteToken ?? '', { ...options, maxAge: inviteToken ? 600 : 0 }));
        return out;
      },
    )
    .on(['GET', 'POST'], '/callback/:providerId', async (c) => {
      const inviteToken = getCookie(c, INVITE_COOKIE) || undefined;
      const body = await passThroughBody(c);
      let outcome: ReturnType<SsoSignUps['close']>;
      let res = await serialize(async () => {
        // Decided before better-auth runs: its user hook must not query while its transaction is open.
        const decision = await decideSignUp(db, inviteToken, openSignup).then(
          (grant) => ({ grant }),
          (err) => {
            if (err instanceof AppError) return { refused: err.message };
            throw err;
          },
        );
        const id = ssoSignUps.open(decision);
        let answer: Response;
        try {
          answer = await handle(forAuth(c, trustedProxies, body, { internal: { [SSO_SIGN_UP_HEADER]: id } }));
        } finally {
          outcome = ssoSignUps.close(id);
        }
        if (outcome?.failure && outcome.userId) {
          // An account without its workspace could never do anything: take it back.
          await deleteAccount(db, outcome.userId);
          return new Response(null, { status: 302, headers: { location: '/sign-in?error=sign_up_failed' } });
        }
        return answer;
      });
      const signedIn = res.headers.getSetCookie().some((cookie) => /^(__Secure-)?baton\.session_token=[^;]/.test(cookie));
      if (inviteToken && signedIn && !outcome?.userId) {
        // An existing account came through an invite link: its page offers to join (or says they are in already).
        const headers = new Headers(res.headers);
        headers.set('location', `/invite/${encodeURIComponent(inviteToken)}`);
        res = new Response(null, { status: 302, headers });
      }
      if (!inviteToken) return inBatonShape(res);
      // Used (or refused): the invitation does not follow the browser into later sign-ins.
      const out = new Response(res.body, res);
      out.headers.append(
        'set-cookie',
        cookieHeader(INVITE_COOKIE, '', { path: CALLBACK_PATH, httpOnly: true, sameSite: 'Lax', secure: secureCookies, maxAge: 0 }),
      );
      return inBatonShape(out);
    });
}
