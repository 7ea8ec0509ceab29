import { z } from 'zod';
import { apiErrorSchema, idSchema, pageSchema, storableString, timestampSchema } from './common';
import { runSchema } from './runs';

export const subChatStatusSchema = z.enum(['running', 'success', 'error', 'cancelled']);
export type SubChatStatus = z.infer<typeof subChatStatusSchema>;

export const messageRoleSchema = z.enum(['system', 'user', 'assistant']);

/** A stored message: `parts` are AI SDK UI message parts, kept as the SDK produced them. */
export const messageSchema = z
  .object({
    id: z.string(),
    chatId: z.string(),
    role: messageRoleSchema,
    parts: z.array(z.record(z.string(), z.unknown())),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    createdAt: timestampSchema,
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof messageSchema>;

export const chatSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    agentId: z.string().nullable(),
    title: z.string(),
    parentChatId: z.string().nullable(),
    parentToolCallId: z.string().nullable(),
    delegateTask: z.string().nullable(),
    /** A sub-chat's result, as its `taskResult` call (or the failure) stated it. */
    delegateResult: z.string().nullable(),
    status: subChatStatusSchema.nullable(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Chat' });
export type Chat = z.infer<typeof chatSchema>;

export const chatWithMessagesSchema = chatSchema
  .extend({
    messages: z.array(messageSchema),
    /** A turn is running on the server right now (e.g. the page was reloaded mid-answer). */
    answering: z.boolean(),
    /** The running turn, if any: follow it with `GET …/chats/:id/stream`. */
    activeRun: runSchema.nullable(),
  })
  .meta({ id: 'ChatWithMessages' });
export type ChatWithMessages = z.infer<typeof chatWithMessagesSchema>;

export const chatTitleSchema = storableString.trim().min(1, 'must not be empty').max(200);

export const chatCreateSchema = z
  .strictObject({
    id: idSchema.optional(),
    agentId: idSchema.optional(),
    title: chatTitleSchema.optional(),
  })
  .meta({ id: 'ChatCreate' });
export type ChatCreate = z.infer<typeof chatCreateSchema>;

export const chatUpdateSchema = z.strictObject({ title: chatTitleSchema }).meta({ id: 'ChatUpdate' });
export type ChatUpdate = z.infer<typeof chatUpdateSchema>;

export const chatPageSchema = pageSchema(chatSchema).meta({ id: 'ChatPage' });
export const subChatListSchema = z.object({ data: z.array(chatSchema) }).meta({ id: 'SubChatList' });

/**
 * What `POST …/chats/:id/messages` returns: the messages the turn added (the user message
 * and the answer), the run, and — when the answer failed — the reason, which is also
 * stored in the answer as a `data-run-error` part.
 */
export const chatTurnResultSchema = z
  .object({
    messages: z.array(messageSchema),
    run: runSchema,
    error: apiErrorSchema.shape.error.optional(),
  })
  .meta({ id: 'ChatTurnResult' });
export type ChatTurnResult = z.infer<typeof chatTurnResultSchema>;
