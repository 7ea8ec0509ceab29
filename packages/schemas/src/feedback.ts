import { z } from 'zod';
import { listQuerySchema, pageSchema, storableString, timestampSchema } from './common';

/** Thumbs up or down on an answer. */
export const feedbackRatingSchema = z.enum(['up', 'down']).meta({ id: 'FeedbackRating' });
export type FeedbackRating = z.infer<typeof feedbackRatingSchema>;

export const MAX_FEEDBACK_COMMENT_CHARS = 2_000;

/**
 * `PUT …/chats/:id/messages/:messageId/feedback`: the caller's rating of an assistant message,
 * replacing theirs if they rated it before. An empty or blank comment is stored as none.
 */
export const feedbackInputSchema = z
  .strictObject({
    rating: feedbackRatingSchema,
    comment: storableString
      .trim()
      .max(MAX_FEEDBACK_COMMENT_CHARS)
      .nullable()
      .optional()
      .transform((c) => (c ? c : null)),
  })
  .meta({ id: 'FeedbackInput' });
export type FeedbackInput = z.input<typeof feedbackInputSchema>;
export type FeedbackInputParsed = z.output<typeof feedbackInputSchema>;

/** The caller's own feedback on a message (`Message.feedback`; null when they gave none). */
export const messageFeedbackSchema = z
  .object({
    rating: feedbackRatingSchema,
    comment: z.string().nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'MessageFeedback' });
export type MessageFeedback = z.infer<typeof messageFeedbackSchema>;

/** One rating as admins see it under an agent, and as a chat's export carries it. */
export const feedbackEntrySchema = z
  .object({
    id: z.string(),
    messageId: z.string(),
    chatId: z.string(),
    chatTitle: z.string(),
    /** The agent whose answer was rated (null: since deleted). */
    agentId: z.string().nullable(),
    userId: z.string(),
    userName: z.string(),
    rating: feedbackRatingSchema,
    comment: z.string().nullable(),
    /** The start of the rated answer's text, so the rating can be read without the chat (which is private to its author). */
    answerExcerpt: z.string(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'FeedbackEntry' });
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;

/** `GET …/agents/:id/feedback` (admins): newest first, with the agent's totals. */
export const agentFeedbackPageSchema = pageSchema(feedbackEntrySchema)
  .extend({ totals: z.object({ up: z.number().int(), down: z.number().int() }) })
  .meta({ id: 'AgentFeedbackPage' });
export type AgentFeedbackPage = z.infer<typeof agentFeedbackPageSchema>;

export const agentFeedbackQuerySchema = listQuerySchema.extend({ rating: feedbackRatingSchema.optional() });
export type AgentFeedbackQuery = z.infer<typeof agentFeedbackQuerySchema>;
