import { context, propagation } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { endSpan, SpanKind, startSpan, tracingEnabled, withSpan } from '../ops/tracing';
import type { AppEnv } from './access';

/**
 * One span per request, named by method and route pattern (ids stay out of names), active
 * while the route works so what it starts (a run) is its child. A caller's `traceparent`
 * header makes it part of the caller's trace. It ends when the response starts; a run it
 * started goes on in its own span. Without a collector it is not there at all.
 */
export function requestSpan(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!tracingEnabled()) return next();
    const method = c.req.method;
    const parent = propagation.extract(context.active(), { traceparent: c.req.header('traceparent'), tracestate: c.req.header('tracestate') });
    const span = startSpan(method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } }, parent);
    try {
      await context.with(parent, () => withSpan(span, next));
    } finally {
      const route = routePath(c, -1) || c.req.routePath;
      const status = c.res.status;
      span.updateName(`${method} ${route}`);
      span.setAttributes({ [ATTR_HTTP_ROUTE]: route, [ATTR_HTTP_RESPONSE_STATUS_CODE]: status, 'baton.request_id': c.get('requestId') });
      endSpan(span, status >= 500 ? `HTTP ${status}` : undefined);
    }
  };
}
