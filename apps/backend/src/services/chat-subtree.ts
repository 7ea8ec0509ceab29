import { asc, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { chat, run } from '../db/schema';
import type { ChatOwner } from './chat-rows';

/**
 * The one recursive query over delegation trees: the given chats and every chat below them
 * (sub-chats of sub-chats, any depth) as a CTE named `subtree`, with `id` and `level` (0 for
 * the given chats) to select and join on. With an `owner`, every level is scoped to that
 * owner, like every chat query a person's request reaches (usage roll-up, trace). Without
 * one it follows `parentChatId` alone: for the runtime's own bookkeeping (budgets, stopping
 * runs), which starts from chats it already holds. Drizzle has no `with recursive`, so the
 * recursive query sits inside a plain CTE, which Postgres and PGlite both accept.
 */
export function chatSubtree(db: Database, from: string | readonly string[], owner?: ChatOwner) {
  const ids = typeof from === 'string' ? [from] : from;
  const scoped = (alias: string) =>
    owner
      ? sql` and ${sql.identifier(alias)}.${sql.identifier(chat.workspaceId.name)} = ${owner.workspaceId} and ${sql.identifier(alias)}.${sql.identifier(chat.userId.name)} = ${owner.userId}`
      : sql``;
  const starts =
    ids.length === 0
      ? sql`false`
      : sql`origin.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const cte = db.$with('subtree', { id: sql<string>`id`.as('id'), level: sql<number>`level`.as('level') }).as(
    sql`with recursive tree (id, level) as (
      select origin.id, 0 from ${chat} origin where ${starts}${scoped('origin')}
      union all
      select below.id, tree.level + 1 from ${chat} below join tree on below.${sql.identifier(chat.parentChatId.name)} = tree.id where true${scoped('below')}
    ) select id, level from tree`,
  );
  // Qualified by hand: drizzle renders the fields of a CTE written in SQL without its name, and `id` is in every table.
  return { cte, id: sql<string>`"subtree"."id"`, level: sql<number>`"subtree"."level"`.mapWith(Number) };
}

/**
 * Locks the run rows of these chats and of every chat below them, in id order, before a
 * delete reaches them through the cascade. A run that ends takes its run row and then its
 * chat (the final message, the usage); a delete that took the chat first and met the run
 * row in the cascade would deadlock with it, and Postgres would fail one of the two.
 */
export async function lockRunsBelow(tx: Database, chatIds: string[]): Promise<void> {
  const subtree = chatSubtree(tx, chatIds);
  await tx
    .with(subtree.cte)
    .select({ id: run.id })
    .from(run)
    .where(inArray(run.chatId, tx.select({ id: subtree.id }).from(subtree.cte)))
    .orderBy(asc(run.id))
    .for('update');
}
