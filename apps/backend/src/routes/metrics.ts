import { createHash, timingSafeEqual } from 'node:crypto';
import { errorCodes } from '@baton/schemas';
import { Hono } from 'hono';
import { errorBody, notFoundRoute } from '../http/errors';
import { metricsText } from '../ops/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `Authorization: Bearer <token>` names the token, compared in constant time (digests of equal length). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

/**
 * GET /metrics for Prometheus: absent (404, like any unknown path) unless BATON_METRICS_TOKEN
 * is set; then only for a scraper that sends it as a bearer token (the text names routes,
 * models and servers an outsider need not learn).
 */
export function metricsRoutes(token: string | undefined) {
  return new Hono().get('/', async (c) => {
    if (!token) return notFoundRoute(c);
    if (!bearerMatches(c.req.header('authorization'), token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json(errorBody(errorCodes.unauthorized, 'send the metrics token (BATON_METRICS_TOKEN) as a bearer token'), 401);
    }
    const { body, contentType } = await metricsText();
    return c.body(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
  });
}
