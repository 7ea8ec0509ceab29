import { z } from 'zod';
import { timestampSchema } from './common';
import { fileUIPartSchema } from './files';

/**
 * A message a person sent to a running sub-agent (`POST …/chats/:subChatId/messages`).
 * `queued`: waiting for the sub-agent's next step; `delivered`: the sub-agent's model saw
 * it at `stepNumber` (it is then also a `steering-message` part of the sub-chat's answer, with
 * the same id); `not_delivered`: the sub-agent ended before another step began. `files`: the
 * files it carries, as Baton file parts (references; the files belong to the sub-chat).
 */
export const steeringStatusSchema = z.enum(['queued', 'delivered', 'not_delivered']);
export type SteeringStatus = z.infer<typeof steeringStatusSchema>;

export const steeringMessageSchema = z
  .object({
    id: z.string(),
    chatId: z.string(),
    text: z.string(),
    files: z.array(fileUIPartSchema.omit({ providerMetadata: true })),
    status: steeringStatusSchema,
    /** The sub-agent's step (0-based, within its run) whose model call received it. */
    stepNumber: z.number().int().nullable(),
    createdAt: timestampSchema,
    deliveredAt: timestampSchema.nullable(),
  })
  .meta({ id: 'SteeringMessage' });
export type SteeringMessage = z.infer<typeof steeringMessageSchema>;

export const steeringMessageListSchema = z.object({ data: z.array(steeringMessageSchema) }).meta({ id: 'SteeringMessageList' });
