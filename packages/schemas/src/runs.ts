import { z } from 'zod';
import { timestampSchema } from './common';

/**
 * `awaiting_approval`: the turn ended with `newTask` calls a person must approve or reject
 * (the root agent's `delegation.requireApproval`); deciding the last one resumes the answer
 * as a new run that continues the same assistant message.
 */
export const runStatusSchema = z.enum(['running', 'succeeded', 'failed', 'cancelled', 'interrupted', 'awaiting_approval']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** One turn of a chat: a parent's answer, or a sub-agent working on its task. */
export const runSchema = z
  .object({
    id: z.string(),
    chatId: z.string(),
    kind: z.enum(['turn', 'sub_agent']),
    status: runStatusSchema,
    /** The assistant message the run writes. */
    messageId: z.string(),
    /**
     * How many parts that message had when the run began (0: a new message). A client
     * resuming the run's stream (`GET …/chats/:id/stream`, which replays from the start)
     * truncates the stored message to this many parts first.
     */
    basePartCount: z.number().int(),
    startedAt: timestampSchema,
    endedAt: timestampSchema.nullable(),
    error: z.string().nullable(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
  })
  .meta({ id: 'Run' });
export type Run = z.infer<typeof runSchema>;

/**
 * Why an answer failed, stored as a part of the assistant message (`data-run-error`) so
 * the reason is shown live and after a reload alike.
 */
export const RUN_ERROR_PART = 'data-run-error';
/** `too_long`: the answer reached the server's limit on its text (BATON_MAX_ANSWER_CHARS) and was cut there. */
export const runErrorCodeSchema = z.enum(['provider_error', 'timeout', 'interrupted', 'internal_error', 'too_long']);
export type RunErrorCode = z.infer<typeof runErrorCodeSchema>;
export const runErrorDataSchema = z.object({ code: runErrorCodeSchema, message: z.string() });
export type RunErrorData = z.infer<typeof runErrorDataSchema>;

/**
 * The model provider failed and the call is being tried again (`data-run-retry`, a
 * transient part: streamed live, never stored). `attempt` is the attempt about to start,
 * after a wait of `retryInMs` from when the part was sent (the provider's `Retry-After`, or
 * the backoff); `rateLimited` when the provider refused with 429, or another call to it
 * was (the call waits for the same time). Once one gets through, a last one says
 * `recovered: true` (the notice can go).
 */
export const RUN_RETRY_PART = 'data-run-retry';
export const runRetryDataSchema = z.object({
  attempt: z.number().int(),
  maxAttempts: z.number().int(),
  message: z.string(),
  retryInMs: z.number().int().nonnegative().optional(),
  rateLimited: z.boolean().optional(),
  recovered: z.boolean().optional(),
});
export type RunRetryData = z.infer<typeof runRetryDataSchema>;

/** The text an interrupted answer carries. */
export const INTERRUPTED_MESSAGE =
  'Interrupted: the server stopped (a restart or a crash) while this answer was being written. What was written so far is kept.';
