import { NO_USAGE, usageSplit } from '@baton/delegation';
import type { TokenUsage, UsageSplit } from '@baton/schemas';
import { eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Database } from '../db/client';
import { chat } from '../db/schema';
import { chatSubtree } from './chat-subtree';
import type { ChatOwner, ChatRow } from './chat-rows';

/**
 * Each chat row counts only its own runs, so a tree's tokens are the sum over its subtree, in
 * one query: the chats' own tokens (those of the chats the subtree starts from only with
 * `withOwnOfStart`) plus, at every level, what deleted sub-chats of replaced answers had spent.
 */
async function sumOver(db: Database, subtree: ReturnType<typeof chatSubtree>, withOwnOfStart: boolean): Promise<TokenUsage> {
  const own = (column: AnyColumn) => (withOwnOfStart ? sql`${column}` : sql`case when ${subtree.level} > 0 then ${column} else 0 end`);
  // sum() of integers is a bigint, which drivers hand back as a string.
  const [row] = await db
    .with(subtree.cte)
    .select({
      inputTokens: sql<number>`coalesce(sum(${own(chat.inputTokens)} + ${chat.replacedInputTokens}), 0)`.mapWith(Number),
      outputTokens: sql<number>`coalesce(sum(${own(chat.outputTokens)} + ${chat.replacedOutputTokens}), 0)`.mapWith(Number),
    })
    .from(subtree.cte)
    .innerJoin(chat, eq(chat.id, subtree.id));
  return { inputTokens: row?.inputTokens ?? 0, outputTokens: row?.outputTokens ?? 0 };
}

/** Tokens of every chat below this one (its sub-chats, theirs, …, and those deleted with replaced answers), as its owner sees them. */
export async function usageBelow(db: Database, owner: ChatOwner, chatId: string): Promise<TokenUsage> {
  return sumOver(db, chatSubtree(db, chatId, owner), false);
}

/** A chat's own tokens, those of its whole delegation tree below it, and both. */
export async function chatUsage(db: Database, owner: ChatOwner, row: ChatRow): Promise<UsageSplit> {
  return usageSplit({ inputTokens: row.inputTokens, outputTokens: row.outputTokens }, await usageBelow(db, owner, row.id));
}

/**
 * Tokens of these chats and every chat below them, for the runtime's budgets and `newTask`
 * outputs: it starts from sub-chats it already holds, so no owner scoping.
 */
export async function subtreeUsage(db: Database, chatIds: readonly string[]): Promise<TokenUsage> {
  if (chatIds.length === 0) return NO_USAGE;
  return sumOver(db, chatSubtree(db, chatIds), true);
}
