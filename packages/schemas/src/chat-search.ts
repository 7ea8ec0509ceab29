import { z } from 'zod';
import { chatSchema, messageRoleSchema } from './chats';
import { storableString } from './common';

export const MAX_SEARCH_QUERY_CHARS = 200;
export const MAX_SEARCH_TERMS = 16;
export const DEFAULT_SEARCH_RESULTS = 20;
export const MAX_SEARCH_RESULTS = 50;

/** `GET /api/workspaces/:ws/chats/search?q=…&limit=…` */
export const chatSearchQuerySchema = z
  .object({
    q: storableString
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_SEARCH_QUERY_CHARS, `must be at most ${MAX_SEARCH_QUERY_CHARS} characters`)
      .describe('Words to find in chat titles and message text; every word must occur, each as the start of a word ("deleg" finds "delegation")'),
    limit: z.coerce.number().int().min(1).max(MAX_SEARCH_RESULTS).default(DEFAULT_SEARCH_RESULTS),
  })
  .meta({ id: 'ChatSearchQuery' });
export type ChatSearchQuery = z.infer<typeof chatSearchQuerySchema>;

/**
 * The words of a search, lower-cased: runs of letters and digits, as Postgres' text-search
 * parser splits text. Anything else (punctuation, emoji, operators) separates words and is
 * never passed on as query syntax. Shared so the browser highlights what the server matched.
 */
export function searchTerms(q: string): string[] {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_TERMS);
}

/** A span of a snippet that matched the query: `text.slice(start, end)`. */
export const searchHighlightSchema = z.object({ start: z.number().int(), end: z.number().int() });

export const chatSearchHitSchema = z
  .object({
    /** The top-level chat to open (a match inside one of its sub-chats finds it too). */
    chat: chatSchema,
    /** The best matching message, with a few words around the match; null when only the title matched. */
    match: z
      .object({
        /** The chat that holds the message: the top-level chat itself, or a sub-chat below it. */
        chatId: z.string(),
        messageId: z.string(),
        role: messageRoleSchema,
        snippet: z.string(),
        highlights: z.array(searchHighlightSchema),
      })
      .nullable(),
  })
  .meta({ id: 'ChatSearchHit' });
export type ChatSearchHit = z.infer<typeof chatSearchHitSchema>;

/** Matching chats, most recently active first. */
export const chatSearchResultSchema = z.object({ data: z.array(chatSearchHitSchema) }).meta({ id: 'ChatSearchResult' });
export type ChatSearchResult = z.infer<typeof chatSearchResultSchema>;
