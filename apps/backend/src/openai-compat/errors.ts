import type { OpenAiError } from '@baton/schemas';
import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { logError } from '../error-text';
import { AppError } from '../errors';

type ErrorType = OpenAiError['error']['type'];

/** A `/v1` failure, rendered in OpenAI's error shape so OpenAI clients raise their usual error classes. */
export class OpenAiHttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly type: ErrorType,
    readonly code: string | null,
    message: string,
    readonly param: string | null = null,
    /** Set when a retry by the client would repeat work already done (the answer was stored). */
    readonly noRetry = false,
  ) {
    super(message);
    this.name = 'OpenAiHttpError';
  }
}

export const invalidBody = (message: string, param: string | null = null, code = 'invalid_request') =>
  new OpenAiHttpError(400, 'invalid_request_error', code, message, param);

export function openAiErrorBody(type: ErrorType, code: string | null, message: string, param: string | null = null): OpenAiError {
  return { error: { message, type, code, param } };
}

/**
 * Baton's own errors (thrown by the services `/v1` shares with `/api`) in OpenAI's terms:
 * the status stays, the type follows OpenAI's use of it. A 409 here always means the chat
 * cannot take a message now (it is answering, a sub-agent is still working, or a
 * delegation waits for approval): nothing a retry a moment later would change.
 */
function fromAppError(err: AppError): OpenAiHttpError {
  const { status, message } = err;
  if (status === 401) return new OpenAiHttpError(401, 'authentication_error', 'invalid_api_key', message);
  if (status === 403) return new OpenAiHttpError(403, 'permission_error', err.code, message);
  if (status === 404) return new OpenAiHttpError(404, 'invalid_request_error', 'not_found', message);
  // Sent again at once, the call would meet the same busy chat: OpenAI's clients retry a 409 unless told not to.
  if (status === 409) return new OpenAiHttpError(409, 'invalid_request_error', 'chat_busy', message, null, true);
  if (status === 429) return new OpenAiHttpError(429, 'rate_limit_error', err.code, message);
  if (status >= 500) return new OpenAiHttpError(status, 'server_error', err.code, message);
  return new OpenAiHttpError(status, 'invalid_request_error', err.code, message);
}

export const handleOpenAiError: ErrorHandler = (err, c) => {
  let e: OpenAiHttpError;
  if (err instanceof OpenAiHttpError) e = err;
  else if (err instanceof AppError) e = fromAppError(err);
  else if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    e = new OpenAiHttpError(status, status >= 500 ? 'server_error' : 'invalid_request_error', `http_${status}`, err.message || 'request failed');
  } else {
    // Unexpected: log the error itself, never request bodies or headers (API keys).
    logError(`unhandled error on ${c.req.method} ${c.req.path}`, err);
    e = new OpenAiHttpError(500, 'server_error', 'internal_error', 'something went wrong on the server');
  }
  // OpenAI's clients read this header before retrying 409 / 5xx on their own.
  if (e.noRetry) c.header('x-should-retry', 'false');
  return c.json(openAiErrorBody(e.type, e.code, e.message, e.param), e.status);
};
