import { errorCodes, apiErrorSchema, storableString } from '@baton/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { resolver, validator } from 'hono-openapi';
import { z } from 'zod';
import { AppError } from '../errors';

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

/**
 * Reads the body once so a malformed or non-JSON body is `invalid_json`, before the
 * schema check (Hono's own validator would treat a non-JSON body as `{}`).
 */
const requireJsonBody: MiddlewareHandler = createMiddleware(async (c, next) => {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!jsonMediaType.test(mediaType)) {
    throw new AppError(400, errorCodes.invalidJson, 'the request body must be JSON (Content-Type: application/json)');
  }
  try {
    await c.req.json();
  } catch {
    throw new AppError(400, errorCodes.invalidJson, 'the request body is not valid JSON');
  }
  await next();
});

function rejectInvalid(where: string) {
  return (result: { success: boolean; error?: ReadonlyArray<{ message: string; path?: ReadonlyArray<unknown> }> }) => {
    if (result.success) return;
    const issues = (result.error ?? []).map((issue) => ({
      ...issue,
      path: (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? p.key : p)),
    }));
    const first = issues[0];
    const at = first?.path.length ? `${first.path.join('.')}: ` : '';
    throw new AppError(400, errorCodes.invalidRequest, `invalid ${where}: ${at}${first?.message ?? 'invalid'}`, issues);
  };
}

/** Validates the JSON body with a shared schema; the OpenAPI document reads the same schema. */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return [requireJsonBody, validator('json', schema, rejectInvalid('request body'))] as const;
}

export function queryParams<S extends z.ZodType>(schema: S) {
  return validator('query', schema, rejectInvalid('query'));
}

const pathParamsSchema = z.record(z.string(), storableString);

/**
 * `c.req.param()` holds only the parameters of the route running now; a middleware that
 * runs before the routes needs those of every matched route (the mount paths' and the
 * handler's), decoded exactly as the handlers will read them.
 */
function allPathParams(c: Context): Record<string, string> {
  const current = c.req.routeIndex;
  const params: Record<string, string> = {};
  try {
    for (let i = 0; i < matchedRoutes(c).length; i++) {
      c.req.routeIndex = i;
      Object.assign(params, c.req.param());
    }
  } finally {
    c.req.routeIndex = current;
  }
  return params;
}

/**
 * Path parameters go into queries as they are, so they follow the rule of every request
 * string: a NUL would fail the query (500) instead of being a 400 that names the parameter.
 */
export const storablePathParams: MiddlewareHandler = createMiddleware(async (c, next) => {
  const result = pathParamsSchema.safeParse(allPathParams(c));
  if (!result.success) rejectInvalid('path')({ success: false, error: result.error.issues });
  await next();
});

/** OpenAPI response entries, so each route states its success and error shapes once. */
export function jsonResponse(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema: resolver(schema) } } };
}

export const errorResponses = {
  400: jsonResponse('Invalid JSON or a request that breaks the schema or a rule', apiErrorSchema),
  401: jsonResponse('No session and no API key, or a key that is not valid (revoked)', apiErrorSchema),
  403: jsonResponse('Not allowed for this caller (an admin route called by a member, a cross-site request)', apiErrorSchema),
  404: jsonResponse("Unknown id (or an id of another workspace, or another member's chat)", apiErrorSchema),
  413: jsonResponse('Body over 1 MiB', apiErrorSchema),
};
