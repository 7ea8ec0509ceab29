import { errorCodes, type ApiError } from '@baton/schemas';
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { logError } from '../error-text';
import { AppError } from '../errors';

export function errorBody(code: string, message: string, details?: unknown): ApiError {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const handleError: ErrorHandler = (err, c) => {
  if (err instanceof AppError) {
    // A 503 that knows when to come back says so the standard way too.
    const retryAfter = (err.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (err.status === 503 && typeof retryAfter === 'number') c.header('Retry-After', String(retryAfter));
    return c.json(errorBody(err.code, err.message, err.details), err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const code = status === 413 ? errorCodes.payloadTooLarge : status === 400 ? errorCodes.invalidJson : `http_${status}`;
    return c.json(errorBody(code, err.message || 'request failed'), status);
  }
  // Unexpected: log the error itself, never request bodies or query parameters (API keys).
  logError(`unhandled error on ${c.req.method} ${c.req.path}`, err);
  return c.json(errorBody(errorCodes.internal, 'something went wrong on the server'), 500);
};

export function notFoundRoute(c: Context) {
  return c.json(errorBody(errorCodes.notFound, `no route for ${c.req.method} ${c.req.path}`), 404);
}
