import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { BatonUIMessage, MessageVersions } from '@baton/schemas';
import type { Database } from '../db/client';
import { message } from '../db/schema';
import { generateMessageId } from '../ids';
import type { StoredRole } from './messages';
import { sanitizeDeep } from './text-hygiene';

/**
 * A chat's messages form a tree (`message.parent_id`): an edited question or a regenerated
 * answer is a new sibling of the message it replaces, and both stay stored. Among siblings one
 * is `selected`; the messages whose whole line up is selected are `active`, the branch every
 * reader sees (messages.ts reads it with one indexed query). The writes here keep that true;
 * callers hold the chat's lock and have checked that nothing runs in it.
 */

interface Place {
  seq: number;
  parentId: string | null;
  active: boolean;
}

async function placeOf(tx: Database, chatId: string, messageId: string): Promise<Place | undefined> {
  const [row] = await tx
    .select({ seq: message.seq, parentId: message.parentId, active: message.active })
    .from(message)
    .where(and(eq(message.chatId, chatId), eq(message.id, messageId)))
    .limit(1);
  return row;
}

const siblingsOf = (chatId: string, parentId: string | null) =>
  and(eq(message.chatId, chatId), parentId === null ? isNull(message.parentId) : eq(message.parentId, parentId));

/** The active branch ends before `seq`: the messages from there on stay stored, inactive. */
async function leaveBranchFrom(tx: Database, chatId: string, seq: number) {
  await tx
    .update(message)
    .set({ active: false })
    .where(and(eq(message.chatId, chatId), eq(message.active, true), gte(message.seq, seq)));
}

/**
 * An edit of a user message of the active branch: the message as it was becomes an earlier
 * version (a new id, the same place), and the edited one takes its id — what the client holds
 * stays true — with no answer yet. The branch that followed the old text stays stored below it.
 */
export async function storeEditedVersion(tx: Database, chatId: string, edited: BatonUIMessage): Promise<boolean> {
  const place = await placeOf(tx, chatId, edited.id);
  if (!place?.active) return false;
  // Its answers follow it to the new id (parent_id is ON UPDATE CASCADE).
  await tx
    .update(message)
    .set({ id: generateMessageId() })
    .where(and(eq(message.chatId, chatId), eq(message.id, edited.id)));
  await leaveBranchFrom(tx, chatId, place.seq);
  await tx.update(message).set({ selected: false }).where(siblingsOf(chatId, place.parentId));
  await tx.insert(message).values({
    id: edited.id,
    chatId,
    role: edited.role as StoredRole,
    parts: sanitizeDeep(edited.parts),
    seq: place.seq,
    parentId: place.parentId,
  });
  return true;
}

/**
 * Regenerate: the answers after a user message of the active branch leave it (kept as
 * versions); the run's new answer is stored as the next child of that message.
 */
export async function answerAgainAfter(tx: Database, chatId: string, userMessageId: string): Promise<boolean> {
  const place = await placeOf(tx, chatId, userMessageId);
  if (!place?.active) return false;
  await leaveBranchFrom(tx, chatId, place.seq + 1);
  await tx.update(message).set({ selected: false }).where(siblingsOf(chatId, userMessageId));
  return true;
}

/**
 * Makes a stored message the chosen version among its siblings, and the active branch follow
 * it: below it, the versions chosen there before. Returns false for a message not in the chat.
 */
export async function activateVersion(tx: Database, chatId: string, messageId: string): Promise<boolean> {
  const place = await placeOf(tx, chatId, messageId);
  if (!place) return false;
  if (place.active) return true;
  await tx
    .update(message)
    .set({ selected: sql`${message.id} = ${messageId}` })
    .where(siblingsOf(chatId, place.parentId));
  await leaveBranchFrom(tx, chatId, place.seq);
  await tx.execute(sql`
    with recursive path (id) as (
      select ${messageId}::text
      union all
      select c.id from ${message} c join path on c.parent_id = path.id where c.chat_id = ${chatId} and c.selected
    )
    update ${message} set active = true where ${message.chatId} = ${chatId} and ${message.id} in (select id from path)`);
  return true;
}

/**
 * The versions of each message of the active branch that has siblings, by message id: where
 * it stands among them (1-based, oldest first) and their ids, for a pager. One query, returning
 * only the places where the conversation branched.
 */
export async function versionsOfActiveBranch(db: Database, chatId: string): Promise<Map<string, MessageVersions>> {
  const result = await db.execute(sql`
    select array_agg(s.id order by s.created_at, s.id) as ids, (array_agg(s.id) filter (where s.active))[1] as active_id
    from ${message} s
    where s.chat_id = ${chatId}
      and (s.parent_id is null or s.parent_id in (select a.id from ${message} a where a.chat_id = ${chatId} and a.active))
    group by s.parent_id
    having count(*) > 1`);
  const versions = new Map<string, MessageVersions>();
  for (const { ids, active_id } of (result as unknown as { rows: { ids: string[]; active_id: string | null }[] }).rows) {
    if (active_id) versions.set(active_id, { index: ids.indexOf(active_id) + 1, count: ids.length, ids });
  }
  return versions;
}
