import { z } from 'zod';

/** Every error response of the API has this shape. */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof apiErrorSchema>;

export const errorCodes = {
  invalidJson: 'invalid_json',
  invalidRequest: 'invalid_request',
  notFound: 'not_found',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  tooManyRequests: 'too_many_requests',
  payloadTooLarge: 'payload_too_large',
  /** An upload whose type (read from its bytes) is not one Baton accepts. */
  unsupportedMediaType: 'unsupported_media_type',
  conflict: 'conflict',
  /** Deleting an agent other people's chats use: repeat with `?force=true` to confirm. */
  agentInUse: 'agent_in_use',
  /** A stored secret would go to another host than it was entered for: enter it again (or remove it). */
  secretRequired: 'secret_required',
  unavailable: 'unavailable',
  /** Mail is needed (a reset mail, an emailed invitation) and the server has none (`BATON_SMTP_URL` unset). */
  mailNotConfigured: 'mail_not_configured',
  internal: 'internal_error',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

export const NUL_MESSAGE = 'must not contain NUL bytes (U+0000)';

/**
 * `s` cut to at most `max` UTF-16 units without splitting a surrogate pair: slicing an
 * emoji in half would leave a lone surrogate, which jsonb refuses (the whole write fails).
 */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  const last = s.charCodeAt(max - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Postgres can store no U+0000 in text or jsonb: a NUL that got past validation would be a
 * failed write (500). Every string a request carries refuses it here, so it is a 400 that
 * names the field.
 */
export const noNulBytes = z.refine<string>((s) => !s.includes('\u0000'), NUL_MESSAGE);

/** The base of every string field of a request. */
export const storableString = z.string().check(noNulBytes);

export const idSchema = storableString.trim().min(1).max(200);
export const nameSchema = storableString.trim().min(1, 'must not be empty').max(200);

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: storableString.min(1).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A page of a list endpoint: `nextCursor` is null on the last page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}
export type Page<T> = { data: T[]; nextCursor: string | null };

export const timestampSchema = z.string().describe('ISO 8601 timestamp');
