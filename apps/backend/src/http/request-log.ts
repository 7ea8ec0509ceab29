import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { log } from '../ops/logger';
import { requestServed } from '../ops/metrics';
import type { AppEnv } from './access';

/** A caller's own request id is kept when it is a plain token (so it can be searched for), else a new one is made. */
const ACCEPTED_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The pattern of the route that answered: the last matched one that is not a catch-all. Every
 * route matching the path is listed, a fallback registered after the real ones (`/v1/*`, for
 * /v1's own 404s) and middleware (`/api/workspaces/:workspaceId/*`) included; a request that
 * only catch-alls match (an unknown path) gets the last of them.
 */
function routePattern(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (!routes[i]!.path.endsWith('*')) return routes[i]!.path;
  return routes.at(-1)?.path ?? c.req.routePath;
}

const WORKSPACE_IN_PATH = /^\/api\/workspaces\/([^/]+)/;

/**
 * One log line per request: its id (from `X-Request-Id`, or made here; echoed in the
 * response), method, the route's pattern (ids stay out of it), status, how long until the
 * response started (a stream goes on after that), and who asked: workspace and user ids.
 * Never a header, a query string or a body.
 */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const claimed = c.req.header('x-request-id');
    const requestId = claimed && ACCEPTED_REQUEST_ID.test(claimed) ? claimed : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      c.header('X-Request-Id', requestId);
      const status = c.res.status;
      const principal = c.get('principal');
      const fields = {
        requestId,
        method: c.req.method,
        route: routePattern(c),
        status,
        durationMs: Math.round(performance.now() - started),
        workspaceId: principal?.apiKey?.workspaceId ?? WORKSPACE_IN_PATH.exec(c.req.path)?.[1],
        userId: principal?.userId,
      };
      requestServed(fields.method, fields.route, status, fields.durationMs / 1000);
      if (status >= 500) log.error(fields, 'request failed');
      else log.info(fields, 'request');
    }
  };
}
