import { NO_USAGE, usageSplit } from '@baton/delegation';
import type { TokenUsage, UsageSplit } from '@baton/schemas';
import { eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { chat } from '../db/schema';
import { chatSubtree } from './chat-subtree';
import type { ChatOwner, ChatRow } from './chats';

// Each chat row counts only its own runs, so a tree's tokens are the sum over its subtree, in one query.
async function sumOver(db: Database, subtree: ReturnType<typeof chatSubtree>, where?: SQL): Promise<TokenUsage> {
  // sum() of integers is a bigint, which drivers hand back as a string.
  const [row] = await db
    .with(subtree.cte)
    .select({
      inputTokens: sql<number>`coalesce(sum(${chat.inputTokens}), 0)`.mapWith(Number),
      outputTokens: sql<number>`coalesce(sum(${chat.outputTokens}), 0)`.mapWith(Number),
    })
    .from(subtree.cte)
    .innerJoin(chat, eq(chat.id, subtree.id))
    .where(where);
  return { inputTokens: row?.inputTokens ?? 0, outputTokens: row?.outputTokens ?? 0 };
}

/** Tokens of every chat below this one (its sub-chats, theirs, …), as its owner sees them. */
export async function delegatedUsage(db: Database, owner: ChatOwner, chatId: string): Promise<TokenUsage> {
  const subtree = chatSubtree(db, chatId, owner);
  return sumOver(db, subtree, gt(subtree.level, 0));
}

/** A chat's own tokens, those of its whole delegation tree below it, and both. */
export async function chatUsage(db: Database, owner: ChatOwner, row: ChatRow): Promise<UsageSplit> {
  return usageSplit({ inputTokens: row.inputTokens, outputTokens: row.outputTokens }, await delegatedUsage(db, owner, row.id));
}

/**
 * Tokens of these chats and every chat below them, for the runtime's budgets and `newTask`
 * outputs: it starts from sub-chats it already holds, so no owner scoping.
 */
export async function subtreeUsage(db: Database, chatIds: readonly string[]): Promise<TokenUsage> {
  if (chatIds.length === 0) return NO_USAGE;
  return sumOver(db, chatSubtree(db, chatIds));
}
