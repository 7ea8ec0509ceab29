import { z } from 'zod';
import { MAX_MESSAGE_TEXT_CHARS } from './chat-stream';
import { idSchema, storableString } from './common';

/**
 * Body of `POST /api/workspaces/:ws/chats/:id/delegations/:toolCallId/retry`: run a finished
 * delegation of the chat's last answer again, with the same or another sub-agent and
 * optionally an edited task (both default to the call's).
 */
export const delegationRetryRequestSchema = z
  .strictObject({
    subAgentId: idSchema.optional(),
    task: storableString
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_MESSAGE_TEXT_CHARS, `must be at most ${MAX_MESSAGE_TEXT_CHARS.toLocaleString('en-US')} characters`)
      .optional(),
  })
  .meta({ id: 'DelegationRetryRequest' });
export type DelegationRetryRequest = z.infer<typeof delegationRetryRequestSchema>;

/** `202`: the new attempt is running; when it ends, the parent's answer after the call is written again. */
export const delegationRetrySchema = z
  .object({
    toolCallId: z.string(),
    /** The new attempt's sub-chat (follow it with `GET …/chats/:subChatId/stream`). */
    subChatId: z.string(),
    attempt: z.number().int(),
    subAgentId: z.string(),
    task: z.string(),
  })
  .meta({ id: 'DelegationRetry' });
export type DelegationRetry = z.infer<typeof delegationRetrySchema>;
