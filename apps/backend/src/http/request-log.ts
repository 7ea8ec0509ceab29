import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { log } from '../ops/logger';
import type { AppEnv } from './access';

/** A caller's own request id is kept when it is a plain token (so it can be searched for), else a new one is made. */
const ACCEPTED_REQUEST_ID = /^[\w.:-]{1,128}$/;

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
        route: routePath(c, -1) || c.req.routePath,
        status,
        durationMs: Math.round(performance.now() - started),
        workspaceId: principal?.apiKey?.workspaceId ?? WORKSPACE_IN_PATH.exec(c.req.path)?.[1],
        userId: principal?.userId,
      };
      if (status >= 500) log.error(fields, 'request failed');
      else log.info(fields, 'request');
    }
  };
}
