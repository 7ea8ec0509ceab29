import { A2AError, RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { AppError } from '../errors';
import { logError } from '../error-text';

/**
 * A failure as the A2A error the SDK's transport puts on the wire. Baton's own refusals keep
 * their message (written for the caller: a chat that is busy, bad input); anything else is
 * logged and answered as an internal error without its text, which could hold internals.
 */
export function asA2AError(err: unknown): Error {
  if (err instanceof A2AError) return err;
  if (err instanceof AppError) {
    if (err.status === 404) return new TaskNotFoundError(err.message);
    if (err.status === 409 || err.status === 503) return new UnsupportedOperationError(err.message);
    if (err.status < 500) return new RequestMalformedError(err.message);
  }
  logError('A2A request failed', err);
  return new Error('internal error');
}
