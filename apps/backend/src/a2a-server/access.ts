import { errorCodes } from '@baton/schemas';
import type { MiddlewareHandler } from 'hono';
import type { AgentRow } from '../agent/runtime-types';
import { BEARER } from '../auth/principal';
import type { Database } from '../db/client';
import type { AppEnv } from '../http/access';
import { errorBody } from '../http/errors';
import { findAgent } from '../services/agents';
import { noteApiKeyUse, verifyApiKey } from '../services/api-keys';

export type A2AEnv = { Variables: AppEnv['Variables'] & { agent: AgentRow } };

/**
 * `/a2a/:agentId/*`: a Baton API key (`Authorization: Bearer`, the card's security scheme),
 * else 401; then the agent, when it is of the key's workspace and published, else 404 — one
 * answer for an agent that does not exist, is another workspace's or is not published, so an
 * id reveals nothing. The card is behind the key too: it lists the agent's sub-agents and tools.
 */
export function requirePublishedAgent(db: Database): MiddlewareHandler<A2AEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const key = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const apiKey = key ? await verifyApiKey(db, key) : undefined;
    if (!apiKey) {
      c.header('www-authenticate', 'Bearer realm="baton"');
      const why = key ? 'the API key is not valid: it may have been revoked, or mistyped' : 'no API key: send "Authorization: Bearer <Baton API key>"';
      return c.json(errorBody(errorCodes.unauthorized, why), 401);
    }
    const agentId = c.req.param('agentId') ?? '';
    const agent = agentId.includes('\u0000') ? undefined : await findAgent(db, apiKey.workspaceId, agentId);
    if (!agent?.a2aPublished) return c.json(errorBody(errorCodes.notFound, `agent "${agentId}" was not found, or is not published over A2A`), 404);
    c.set('principal', { userId: apiKey.userId, apiKey });
    c.set('access', apiKey);
    c.set('agent', agent);
    await next();
    // Only a request the key was good for counts as a use.
    if (c.res.status < 400) noteApiKeyUse(db, apiKey);
  };
}
