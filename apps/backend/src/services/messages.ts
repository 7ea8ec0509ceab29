import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { BatonMessageMetadata, BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { chat, message, run } from '../db/schema';
import type { MessageRow } from './chat-rows';
import { sanitizeDeep } from './text-hygiene';

export type StoredRole = 'user' | 'assistant';

/** The messages of a chat's active branch (see `message.active`): what every reader of a chat sees. */
const onActiveBranch = (chatId: string) => and(eq(message.chatId, chatId), eq(message.active, true));

/** The chat's history as Baton's UI messages, in order: its active branch. */
export async function loadHistory(db: Database, chatId: string): Promise<BatonUIMessage[]> {
  const rows = await db
    .select({ id: message.id, role: message.role, parts: message.parts, metadata: message.metadata })
    .from(message)
    .where(onActiveBranch(chatId))
    .orderBy(asc(message.seq));
  return rows.map(toUIMessage);
}

/** The chat's stored message rows of its active branch, in order (the read model's; the runtime reads `loadHistory`). */
export async function chatMessageRows(db: Database, chatId: string): Promise<MessageRow[]> {
  return db.select().from(message).where(onActiveBranch(chatId)).orderBy(asc(message.seq));
}

/** A new message's place: after the last message of the chat's active branch. */
const nextSeq = (chatId: string) =>
  sql`(select coalesce(max(${message.seq}), 0) + 1 from ${message} where ${message.chatId} = ${chatId} and ${message.active})`;
const branchLeaf = (chatId: string) =>
  sql`(select ${message.id} from ${message} where ${message.chatId} = ${chatId} and ${message.active} order by ${message.seq} desc limit 1)`;

/**
 * A stored row as the message it holds. The parts are stored as the message had them (the
 * column is typed so); the metadata is what the backend recorded, read as it was written.
 */
export function toUIMessage(r: Pick<MessageRow, 'id' | 'role' | 'parts' | 'metadata'>): BatonUIMessage {
  return {
    id: r.id,
    role: r.role as StoredRole,
    parts: r.parts,
    ...(r.metadata ? { metadata: r.metadata as BatonMessageMetadata } : {}),
  };
}

/** One stored message of a chat as a UI message. */
export async function findMessage(db: Database, chatId: string, messageId: string): Promise<BatonUIMessage | undefined> {
  const [row] = await db
    .select({ id: message.id, role: message.role, parts: message.parts, metadata: message.metadata })
    .from(message)
    .where(and(eq(message.chatId, chatId), eq(message.id, messageId)))
    .limit(1);
  return row && toUIMessage(row);
}

/** Whether a message of the chat is on its active branch (false for one on another branch, or none). */
export async function isOnActiveBranch(db: Database, chatId: string, messageId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: message.id })
    .from(message)
    .where(and(onActiveBranch(chatId), eq(message.id, messageId)))
    .limit(1);
  return Boolean(row);
}

/** The first message of the chat's active branch, if any. */
export async function firstMessage(db: Database, chatId: string): Promise<BatonUIMessage | undefined> {
  const [row] = await db
    .select({ id: message.id, role: message.role, parts: message.parts, metadata: message.metadata })
    .from(message)
    .where(onActiveBranch(chatId))
    .orderBy(asc(message.seq))
    .limit(1);
  return row && toUIMessage(row);
}

/** Which chat (if any) already holds a message id: ids are global, not per chat. */
export async function findMessageChatId(db: Database, messageId: string): Promise<string | undefined> {
  const [row] = await db.select({ chatId: message.chatId }).from(message).where(eq(message.id, messageId)).limit(1);
  return row?.chatId;
}

/**
 * Inserts or updates a message by id. A new message goes after the last one of the chat's
 * active branch (its child in the message tree); an
 * existing one keeps its place (an assistant message grows when a tool result arrives
 * and the model continues). One indexed lookup, whatever the chat's length. The chat is
 * marked as updated (see writeMessage for when the caller does that itself).
 */
export async function upsertMessage(db: Database, chatId: string, msg: BatonUIMessage, metadata?: Record<string, unknown>) {
  await writeMessage(db, chatId, msg, metadata);
  await db.update(chat).set({ updatedAt: new Date() }).where(eq(chat.id, chatId));
}

/** upsertMessage without touching the chat row, for a caller that updates it anyway (a run's end). */
export async function writeMessage(db: Database, chatId: string, msg: BatonUIMessage, metadata?: Record<string, unknown>) {
  const meta = metadata ?? msg.metadata ?? null;
  await db
    .insert(message)
    .values({
      id: msg.id,
      chatId,
      role: msg.role as StoredRole,
      parts: sanitizeDeep(msg.parts),
      metadata: sanitizeDeep(meta),
      seq: nextSeq(chatId),
      parentId: branchLeaf(chatId),
    })
    .onConflictDoUpdate({
      target: message.id,
      set: { parts: sql`excluded.parts`, metadata: sql`excluded.metadata` },
      setWhere: eq(message.chatId, chatId),
    });
}

export interface RunSnapshot {
  runId: string;
  chatId: string;
  /** The message the run is writing, as it stands. */
  message: BatonUIMessage;
  /** What the run has spent so far (its ended steps): stored with the message, so a crash or a stop loses none of it. */
  spent?: RunSpent;
}

export interface RunSpent {
  inputTokens: number;
  outputTokens: number;
  steps: number;
}

/**
 * Stores what several running answers have so far, in one statement: each message is
 * upserted as upsertMessage does, but only while its run is still `running`, and the run
 * row is locked meanwhile, so recovery by another replica (which ends the run and repairs
 * its message) is never overwritten. Run rows are locked in id order, as the heartbeat's
 * update takes them. The run's tokens and steps so far are written too (when they grew),
 * and what they grew by is added to its chat: spent tokens count from the step that spent
 * them, not from the run's end. Returns how many messages were written.
 */
export async function storeRunSnapshots(db: Database, snapshots: RunSnapshot[]): Promise<number> {
  if (snapshots.length === 0) return 0;
  const rows = sql.join(
    snapshots.map(
      (s) =>
        sql`(${s.runId}::text, ${s.message.id}::text, ${s.chatId}::text, ${s.message.role}::text, ${JSON.stringify(sanitizeDeep(s.message.parts))}::jsonb, ${s.message.metadata === undefined ? null : JSON.stringify(sanitizeDeep(s.message.metadata))}::jsonb, ${s.spent?.inputTokens ?? 0}::int, ${s.spent?.outputTokens ?? 0}::int, ${s.spent?.steps ?? 0}::int)`,
    ),
    sql`, `,
  );
  // No key update (not share): the run row may be updated below, and a share lock upgraded
  // while a heartbeat waits for the row would deadlock with it.
  const result = await db.execute(sql`
    with v (run_id, id, chat_id, role, parts, metadata, input_tokens, output_tokens, steps) as (values ${rows}),
    live as (
      select v.*, ${run.inputTokens} as before_input, ${run.outputTokens} as before_output, ${run.steps} as before_steps
      from ${run} join v on v.run_id = ${run.id} and v.chat_id = ${run.chatId}
      where ${run.status} = 'running'
      order by ${run.id}
      for no key update of ${run}
    ),
    grown as (
      select run_id, chat_id, input_tokens, output_tokens, steps,
        greatest(input_tokens - before_input, 0) as added_input, greatest(output_tokens - before_output, 0) as added_output
      from live
      where input_tokens > before_input or output_tokens > before_output or steps > before_steps
    ),
    run_spent as (
      update ${run} set
        input_tokens = greatest(${run.inputTokens}, grown.input_tokens),
        output_tokens = greatest(${run.outputTokens}, grown.output_tokens),
        steps = greatest(${run.steps}, grown.steps)
      from grown where ${run.id} = grown.run_id
    ),
    chat_spent as (
      update ${chat} set
        input_tokens = ${chat.inputTokens} + grown.added_input,
        output_tokens = ${chat.outputTokens} + grown.added_output
      from grown where ${chat.id} = grown.chat_id and (grown.added_input > 0 or grown.added_output > 0)
    )
    insert into ${message} (id, chat_id, role, parts, metadata, seq, parent_id)
    select live.id, live.chat_id, live.role, live.parts, live.metadata,
      (select coalesce(max(m.seq), 0) + 1 from ${message} m where m.chat_id = live.chat_id and m.active),
      (select m.id from ${message} m where m.chat_id = live.chat_id and m.active order by m.seq desc limit 1)
    from live
    on conflict (id) do update set parts = excluded.parts, metadata = excluded.metadata
    where ${message.chatId} = excluded.chat_id
    returning ${message.id}`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

/** A new chat's first message (seq 1). Returns false when the message id is already taken. */
export async function insertFirstMessage(db: Database, chatId: string, msg: BatonUIMessage): Promise<boolean> {
  const [stored] = await db
    .insert(message)
    .values({ id: msg.id, chatId, role: msg.role as StoredRole, parts: sanitizeDeep(msg.parts), seq: 1 })
    .onConflictDoNothing()
    .returning({ id: message.id });
  return Boolean(stored);
}

/** The stored rows of a chat's active branch from `messageId` on, in order: what one turn added. */
export async function messagesFrom(db: Database, chatId: string, messageId: string) {
  const [anchor] = await db
    .select({ seq: message.seq })
    .from(message)
    .where(and(onActiveBranch(chatId), eq(message.id, messageId)));
  if (!anchor) return [];
  return db
    .select()
    .from(message)
    .where(and(onActiveBranch(chatId), gte(message.seq, anchor.seq)))
    .orderBy(asc(message.seq));
}
