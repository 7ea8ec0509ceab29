import { errorCodes } from '@baton/schemas';
import type { MiddlewareHandler } from 'hono';
import type { Database } from '../db/client';
import { AppError } from '../errors';
import { noteApiKeyUse, verifyApiKey, type ApiKeyPrincipal } from '../services/api-keys';
import { inBetterAuth } from './async-context';
import type { BetterAuth } from './better-auth';
import { isFromTrustedProxy, type TrustedProxies } from './client-ip';
import { isCrossSiteWrite } from './same-origin';
import { type SessionCache, sessionCookieValue } from './session-cache';

/** Who is calling: a signed-in person (session cookie), or a REST client with one of their API keys. */
export interface Principal {
  userId: string;
  /** Set for API keys: the key reaches this one workspace, with its user's role there. */
  apiKey?: ApiKeyPrincipal;
}

export const unauthorized = (message: string) => new AppError(401, errorCodes.unauthorized, message);

export const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves the caller of every non-public route, or refuses with 401. A request with an
 * `Authorization` header is judged by it alone (a bad key is never rescued by a cookie).
 * A session's writes must come from Baton's own pages: cross-site requests are refused
 * (the addressed origin read from X-Forwarded-Host only when a trusted proxy sent it).
 */
export function authenticate(
  db: Database,
  auth: BetterAuth,
  sessions: SessionCache,
  trust: { origins: readonly string[]; proxies: TrustedProxies },
): MiddlewareHandler<{ Variables: { principal: Principal } }> {
  return async (c, next) => {
    const authorization = c.req.header('authorization');
    if (authorization !== undefined) {
      const key = BEARER.exec(authorization)?.[1];
      const apiKey = key ? await verifyApiKey(db, key) : undefined;
      if (!apiKey) throw unauthorized('the API key is not valid: it may have been revoked, or mistyped (send "Authorization: Bearer <key>")');
      c.set('principal', { userId: apiKey.userId, apiKey });
      await next();
      // Only a request the key was good for counts as a use: a refused one leaves no trace.
      if (c.res.status < 400) noteApiKeyUse(db, apiKey);
      return;
    }
    const cookie = sessionCookieValue(c.req.header('cookie'));
    let userId = cookie ? sessions.get(cookie) : undefined;
    if (!userId && cookie) {
      const session = await inBetterAuth(() => auth.api.getSession({ headers: c.req.raw.headers }));
      if (session) {
        userId = session.user.id;
        sessions.set(cookie, userId, session.session.expiresAt);
      }
    }
    if (!userId) throw unauthorized('sign in first, or send an API key as "Authorization: Bearer <key>"');
    if (isCrossSiteWrite(c.req.raw, trust.origins, isFromTrustedProxy(c, trust.proxies))) {
      throw new AppError(403, errorCodes.forbidden, 'cross-site request refused: this request did not come from Baton');
    }
    c.set('principal', { userId });
    return next();
  };
}
