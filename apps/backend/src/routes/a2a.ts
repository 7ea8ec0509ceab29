import { A2A_VERSION_HEADER, AgentCard } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { Hono, type Context } from 'hono';
import { type A2AEnv, requirePublishedAgent } from '../a2a-server/access';
import { agentCard, legacyAgentCard } from '../a2a-server/card';
import { handleJsonRpc } from '../a2a-server/json-rpc';
import { BatonA2AHandler } from '../a2a-server/request-handler';
import { isFromTrustedProxy, parseTrustedProxies } from '../auth/client-ip';
import { requestOrigin } from '../auth/same-origin';
import { limitBody } from '../http/body-limit';
import { apiCors } from '../http/cors';
import { errorBody } from '../http/errors';
import type { AppDeps } from './deps';

/** As on /api (app.ts). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Mounted at /a2a (next to /api and /v1): each published agent over the A2A protocol, for A2A
 * clients with a Baton API key — its Agent Card at `/a2a/:agentId/.well-known/agent-card.json`,
 * its JSON-RPC endpoint at `/a2a/:agentId`. A task is an answer in a chat of the key's user
 * (a2a-server/task-view.ts).
 */
export function a2aRoutes(deps: AppDeps) {
  const trusted = deps.auth.trustedProxies ?? parseTrustedProxies(undefined);
  // The address the client used (the web app's, through its proxy), so the card's endpoint is reachable from where the card was read.
  const endpointOf = (c: Context<A2AEnv>) => `${requestOrigin(c.req.raw, isFromTrustedProxy(c, trusted)) ?? ''}/a2a/${encodeURIComponent(c.get('agent').id)}`;
  const cardOf = (c: Context<A2AEnv>) => agentCard(deps.db, deps.instanceMcp, c.get('agent'), endpointOf(c));

  const a2a = new Hono<A2AEnv>();
  a2a.use('*', apiCors(deps.corsOrigins ?? []));
  a2a.use(
    '*',
    limitBody(MAX_BODY_BYTES, (c) => c.json(errorBody('payload_too_large', 'the request body is over 1 MiB'), 413)),
  );
  a2a.use('/:agentId', requirePublishedAgent(deps.db));
  a2a.use('/:agentId/*', requirePublishedAgent(deps.db));

  // A2A 1.0's card for clients that ask for it (`A2A-Version: 1.0`, as the SDK's do), else 0.3's, as the SDK's card handler does.
  a2a.get('/:agentId/.well-known/agent-card.json', async (c) => {
    const card = await cardOf(c);
    c.header('vary', 'A2A-Version');
    const version = c.req.header(A2A_VERSION_HEADER) || A2A_LEGACY_PROTOCOL_VERSION;
    return c.json(version === A2A_LEGACY_PROTOCOL_VERSION ? legacyAgentCard(card, endpointOf(c)) : AgentCard.toJSON(card));
  });

  a2a.post('/:agentId', async (c) =>
    handleJsonRpc(c.req.raw, new BatonA2AHandler(deps, c.get('access'), c.get('agent'), await cardOf(c)), deps.streamKeepAliveMs),
  );
  return a2a;
}
