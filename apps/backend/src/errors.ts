import { errorCodes, type ErrorCode } from '@baton/schemas';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** A failure a client can act on; the HTTP layer turns it into `{ error: { code, message, details } }`. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what: string, id: string) => new AppError(404, errorCodes.notFound, `${what} "${id}" was not found`);

export const invalidRequest = (message: string, details?: unknown) => new AppError(400, errorCodes.invalidRequest, message, details);

/**
 * A failure whose message is written for the person using Baton and carries nothing secret
 * or internal: error texts shown to users may repeat it as it is.
 */
export class SafeMessageError extends Error {
  readonly safeToShow = true;
}

export const isSafeMessageError = (err: unknown): err is SafeMessageError =>
  typeof err === 'object' && err !== null && (err as { safeToShow?: unknown }).safeToShow === true;
