import { changePasswordSchema, errorCodes, forgotPasswordSchema, resetPasswordSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { AppError } from '../errors';
import { errorBody } from '../http/errors';
import { errorResponses, jsonBody } from '../http/validation';
import type { TrustedProxies } from './client-ip';
import { forAuth, inBatonShape } from './forwarding';
import type { SessionCache } from './session-cache';

const tags = ['Account'];

/** better-auth's messages, said so that a person knows what to do (by Baton's error code). */
async function reworded(res: Response, messages: Record<string, string>): Promise<Response> {
  const shaped = await inBatonShape(res);
  if (shaped.ok) return shaped;
  const body = (await shaped.clone().json()) as { error: { code: string; message: string } };
  const message = messages[body.error.code];
  if (!message) return shaped;
  return new Response(JSON.stringify(errorBody(body.error.code, message)), { status: shaped.status, headers: shaped.headers });
}

const INVALID_RESET_LINK = 'this reset link has expired or was already used: ask a workspace admin for a new one';

/**
 * Passwords: change yours (signed in), set one with a reset link (an admin's, or a mailed
 * one), and ask for a reset mail when the server can send mail. All pass through
 * better-auth, whose rate limit counts each per client address.
 */
export function passwordRoutes(
  handle: (request: Request) => Promise<Response>,
  sessions: SessionCache,
  { trustedProxies, mail }: { trustedProxies: TrustedProxies; mail: boolean },
) {
  return new Hono()
    .post(
      '/change-password',
      describeRoute({
        tags,
        summary: 'Change your password (signed in; the current password is required)',
        description:
          '`{ currentPassword, newPassword }`. Every other session of the account is signed out; this one gets a new session cookie. `400 invalid_password` when the current password is wrong.',
        responses: { 200: { description: '`{ token, user }` and the new session cookie' }, 400: errorResponses[400], 401: errorResponses[401] },
      }),
      ...jsonBody(changePasswordSchema),
      async (c) => {
        const body = { ...c.req.valid('json'), revokeOtherSessions: true };
        const res = await handle(forAuth(c, trustedProxies, JSON.stringify(body)));
        // The revoked sessions must not live on in this process's cache (other replicas: within its few seconds).
        if (res.ok) sessions.clear();
        return reworded(res, {
          invalid_password: 'the current password is wrong',
          credential_account_not_found: 'your account has no password yet (you sign in with single sign-on): ask a workspace admin for a reset link to set one',
        });
      },
    )
    .post(
      '/reset-password',
      describeRoute({
        tags,
        summary: 'Set a new password with a reset link (public)',
        description:
          '`{ token, newPassword }`: the token of a reset link (`/reset-password/<token>`), issued by a workspace admin or mailed by "Forgot password?". It works once, within an hour. Every session of the account is signed out; sign in with the new password. `400 invalid_token` for a used, expired or unknown link.',
        security: [],
        responses: { 200: { description: '`{ status: true }`' }, 400: errorResponses[400] },
      }),
      ...jsonBody(resetPasswordSchema),
      async (c) => {
        const res = await handle(forAuth(c, trustedProxies, JSON.stringify(c.req.valid('json'))));
        if (res.ok) sessions.clear();
        return reworded(res, { invalid_token: INVALID_RESET_LINK, user_not_found: INVALID_RESET_LINK });
      },
    )
    .post(
      '/request-password-reset',
      describeRoute({
        tags,
        summary: 'Mail a password reset link ("Forgot password?", public; needs BATON_SMTP_URL)',
        description:
          '`{ email }`. Answers the same whether or not the address has an account. Without mail configured: `400 mail_not_configured` (a workspace admin can issue a reset link instead).',
        security: [],
        responses: { 200: { description: '`{ status: true, message }`' }, 400: errorResponses[400] },
      }),
      ...jsonBody(forgotPasswordSchema),
      async (c) => {
        if (!mail) {
          throw new AppError(400, errorCodes.mailNotConfigured, 'this server sends no mail: ask a workspace admin for a password reset link');
        }
        return inBatonShape(await handle(forAuth(c, trustedProxies, JSON.stringify(c.req.valid('json')))));
      },
    );
}
