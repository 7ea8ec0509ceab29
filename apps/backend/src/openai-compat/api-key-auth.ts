import type { MiddlewareHandler } from 'hono';
import { BEARER } from '../auth/principal';
import type { Database } from '../db/client';
import type { AppEnv } from '../http/access';
import { noteApiKeyUse, verifyApiKey } from '../services/api-keys';
import { OpenAiHttpError } from './errors';

const invalidKey = (message: string) => new OpenAiHttpError(401, 'authentication_error', 'invalid_api_key', message);

/**
 * `/v1` takes Baton API keys only (OpenAI clients send `Authorization: Bearer <key>`), no
 * session cookies: it is for programs, and a key reaches exactly one workspace, the one
 * whose agents are the models.
 */
export function requireApiKey(db: Database): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const key = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (!key) throw invalidKey('no API key: send "Authorization: Bearer <Baton API key>" (create one in Baton under Settings → API keys)');
    const apiKey = await verifyApiKey(db, key);
    if (!apiKey) throw invalidKey('the API key is not valid: it may have been revoked, or mistyped');
    c.set('principal', { userId: apiKey.userId, apiKey });
    c.set('access', apiKey);
    await next();
    // Only a request the key was good for counts as a use.
    if (c.res.status < 400) noteApiKeyUse(db, apiKey);
  };
}
