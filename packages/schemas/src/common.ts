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
  payloadTooLarge: 'payload_too_large',
  conflict: 'conflict',
  unavailable: 'unavailable',
  internal: 'internal_error',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().min(1).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A page of a list endpoint: `nextCursor` is null on the last page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}
export type Page<T> = { data: T[]; nextCursor: string | null };

export const idSchema = z.string().trim().min(1).max(200);
export const nameSchema = z.string().trim().min(1, 'must not be empty').max(200);
export const timestampSchema = z.string().describe('ISO 8601 timestamp');
