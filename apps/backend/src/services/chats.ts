import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  cutText,
  MAX_NOTE_CHARS,
  type Chat,
  type ChatCreate,
  type ChatWithMessages,
  type DelegationOutcome,
  type ChatListQuery,
  type Message,
  type SubChatStatus,
  type BatonUIMessage,
} from '@baton/schemas';
import type { Database } from '../db/client';
import { chat, message, run } from '../db/schema';
import { AppError, invalidRequest, notFound } from '../errors';
import { newId } from '../ids';
import { findAgent } from './agents';
import { type ChatStarter, chatOrigin } from './chat-origin';
import { chatSubtree } from './chat-subtree';
import { subtreeUsage } from './chat-usage';
import { chatUsage } from './chat-usage';
import { insertFirstMessage, toUIMessage } from './messages';
import { keysetOrder, keysetWhere, toPage } from './pagination';
import { pendingApprovalsOf, withoutWaitingCalls } from './pending-approvals';
import { findActiveRun, toRun } from './runs';
import { sanitizeText } from './text-hygiene';

export type ChatRow = typeof chat.$inferSelect;
type MessageRow = typeof message.$inferSelect;

export function toChat(row: ChatRow): Chat {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    agentId: row.agentId,
    title: row.title,
    parentChatId: row.parentChatId,
    parentToolCallId: row.parentToolCallId,
    attempt: row.attempt,
    delegateTask: row.delegateTask,
    delegateResult: row.delegateResult,
    status: row.status,
    outcome: row.outcome,
    depth: row.depth,
    contextMode: row.contextMode,
    delegateContext: row.delegateContext,
    effectiveToolIds: row.effectiveToolIds,
    notes: row.notes,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    source: row.source,
    apiKeyName: row.apiKeyName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    chatId: row.chatId,
    role: row.role,
    parts: row.parts,
    metadata: row.metadata ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Whose chats a request may touch: chats are private to their author within a workspace,
 * so every chat query is scoped by both (another member's chat is "not found").
 */
export interface ChatOwner extends ChatStarter {
  workspaceId: string;
  userId: string;
}

// "Most recently active first": a chat's updated_at moves whenever a message is stored.
const topLevelKeyset = { at: chat.updatedAt, id: chat.id, direction: 'desc' } as const;
const ownedBy = (owner: ChatOwner) => and(eq(chat.workspaceId, owner.workspaceId), eq(chat.userId, owner.userId));
const ownedChat = (owner: ChatOwner, id: string) => and(ownedBy(owner), eq(chat.id, id));

export async function listTopLevelChats(db: Database, owner: ChatOwner, query: ChatListQuery) {
  const rows = await db
    .select()
    .from(chat)
    .where(and(ownedBy(owner), isNull(chat.parentChatId), query.source && eq(chat.source, query.source), keysetWhere(topLevelKeyset, query.cursor)))
    .orderBy(...keysetOrder(topLevelKeyset))
    .limit(query.limit + 1);
  return toPage(rows, query, (r) => ({ at: r.updatedAt, id: r.id }), toChat);
}

export async function findChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(ownedChat(owner, id)).limit(1);
  return row;
}

/** A chat by id alone, for the runtime (which got the id from a chat it already owns). */
export async function findChatById(db: Database, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(eq(chat.id, id)).limit(1);
  return row;
}

export async function requireChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow> {
  const row = await findChat(db, owner, id);
  if (!row) throw notFound('Chat', id);
  return row;
}

/**
 * Why a chat id given by the client could not be inserted. Ids are global, but a chat is
 * private to its author: the author's own chat is a conflict, anyone else's chat (another
 * member's, another workspace's) is "not found", exactly as reading it would say, so a
 * create never confirms that someone else's chat exists.
 */
export async function takenChatId(db: Database, owner: ChatOwner, id: string, ownMessage: string): Promise<AppError> {
  return (await findChat(db, owner, id)) ? new AppError(409, 'conflict', ownMessage) : notFound('Chat', id);
}

/** A top-level chat. Sub-chats are born only through delegation (agent/sub-chats.ts). */
export async function createChat(db: Database, owner: ChatOwner, input: ChatCreate): Promise<Chat> {
  return db.transaction(async (tx) => {
    if (input.agentId && !(await findAgent(tx, owner.workspaceId, input.agentId))) {
      throw invalidRequest(`agentId: agent "${input.agentId}" does not exist in this workspace`);
    }
    const id = input.id ?? newId('chat');
    const [row] = await tx
      .insert(chat)
      .values({
        id,
        workspaceId: owner.workspaceId,
        userId: owner.userId,
        agentId: input.agentId ?? null,
        title: input.title ?? 'New chat',
        ...chatOrigin(owner),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw await takenChatId(tx, owner, id, `a chat with id "${id}" already exists`);
    return toChat(row);
  });
}

export async function getChatWithMessages(db: Database, owner: ChatOwner, id: string): Promise<ChatWithMessages> {
  const row = await requireChat(db, owner, id);
  const [messages, active, usage] = await Promise.all([
    db.select().from(message).where(eq(message.chatId, id)).orderBy(asc(message.seq)),
    findActiveRun(db, id),
    chatUsage(db, owner, row),
  ]);
  const last = messages.at(-1);
  // A sub-chat that ended (its delegation stopped while it waited) has nothing left to decide.
  const deciding = last && (!row.parentChatId || row.status === 'running');
  const lastMessage: BatonUIMessage | undefined = last && toUIMessage(last);
  // While a run is going its own calls do not wait for a decision yet (it is still ending), though calls below it may.
  const pendingApprovals = deciding ? await pendingApprovalsOf(db, owner.workspaceId, id, active ? withoutWaitingCalls(lastMessage) : lastMessage) : [];
  return {
    ...toChat(row),
    messages: messages.map(toMessage),
    answering: Boolean(active),
    activeRun: active ? toRun(active) : null,
    usage,
    pendingApprovals,
  };
}

/**
 * The chat, locked until the transaction ends: requests that would start a run on it
 * take turns, so each sees what the one before it committed.
 */
export async function lockChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(ownedChat(owner, id)).for('no key update');
  return row;
}

/** The same lock by id alone, for the runtime (which got the id from a chat it already owns). */
export async function lockChatById(db: Database, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(eq(chat.id, id)).for('no key update');
  return row;
}

export async function renameChat(db: Database, owner: ChatOwner, id: string, title: string): Promise<Chat> {
  const [row] = await db.update(chat).set({ title }).where(ownedChat(owner, id)).returning();
  if (!row) throw notFound('Chat', id);
  return toChat(row);
}

/** Renames a chat only while it still has `expected` as its title: a name a person gave it meanwhile stays. */
export async function renameChatIfTitled(db: Database, chatId: string, expected: string, title: string): Promise<boolean> {
  const rows = await db
    .update(chat)
    .set({ title })
    .where(and(eq(chat.id, chatId), eq(chat.title, expected)))
    .returning({ id: chat.id });
  return rows.length > 0;
}

/** Sub-chats, messages and runs go with it (ON DELETE CASCADE). */
export async function deleteChat(db: Database, owner: ChatOwner, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockRunsBelow(tx, [id]);
    const deleted = await tx.delete(chat).where(ownedChat(owner, id)).returning({ id: chat.id });
    if (deleted.length === 0) throw notFound('Chat', id);
  });
}

/**
 * Deletes sub-chats of a replaced answer (with their sub-chats, messages and runs); call it
 * inside a transaction. What they spent stays spent: their subtrees' tokens are added to the
 * parent's `replaced_*` counters, read once their runs are locked (no snapshot adds more).
 */
export async function deleteReplacedSubChats(tx: Database, parentChatId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await lockRunsBelow(tx, ids);
  const spent = await subtreeUsage(tx, ids);
  await tx
    .update(chat)
    .set({
      replacedInputTokens: sql`${chat.replacedInputTokens} + ${spent.inputTokens}`,
      replacedOutputTokens: sql`${chat.replacedOutputTokens} + ${spent.outputTokens}`,
    })
    .where(eq(chat.id, parentChatId));
  await tx.delete(chat).where(inArray(chat.id, ids));
}

/**
 * Locks the run rows of these chats and of every chat below them, in id order, before a
 * delete reaches them through the cascade. A run that ends takes its run row and then its
 * chat (the final message, the usage); a delete that took the chat first and met the run
 * row in the cascade would deadlock with it, and Postgres would fail one of the two.
 */
async function lockRunsBelow(tx: Database, chatIds: string[]): Promise<void> {
  const subtree = chatSubtree(tx, chatIds);
  await tx
    .with(subtree.cte)
    .select({ id: run.id })
    .from(run)
    .where(inArray(run.chatId, tx.select({ id: subtree.id }).from(subtree.cte)))
    .orderBy(asc(run.id))
    .for('update');
}

export async function listSubChats(db: Database, owner: ChatOwner, parentChatId: string): Promise<Chat[]> {
  await requireChat(db, owner, parentChatId);
  const rows = await db
    .select()
    .from(chat)
    .where(and(ownedBy(owner), eq(chat.parentChatId, parentChatId)))
    .orderBy(asc(chat.createdAt), asc(chat.id));
  return rows.map(toChat);
}

export type NewChatRow = typeof chat.$inferInsert;

/**
 * A chat that starts with its first message, written together: a taken chat id is 409
 * (404 when the chat is someone else's, see takenChatId),
 * so is a delegating call that already has its sub-chat, a taken message id 400, and
 * either way nothing is left behind.
 */
export async function createChatWithFirstMessage(db: Database, values: NewChatRow, first: BatonUIMessage): Promise<ChatRow> {
  const [row] = await db.insert(chat).values(values).onConflictDoNothing().returning();
  if (!row) {
    const existing = values.parentToolCallId ? await findSubChatForCall(db, values.parentChatId!, values.parentToolCallId) : undefined;
    if (existing && existing.id !== values.id) {
      throw new AppError(409, 'conflict', `call "${values.parentToolCallId}" already has its sub-chat "${existing.id}"`, { subChatId: existing.id });
    }
    throw await takenChatId(
      db,
      { workspaceId: values.workspaceId, userId: values.userId ?? '' /* a chat from before accounts: no one's */ },
      values.id,
      `chat id "${values.id}" is already taken`,
    );
  }
  if (!(await insertFirstMessage(db, row.id, first))) {
    throw invalidRequest(`message.id: message "${first.id}" already exists; history cannot be rewritten`);
  }
  return row;
}

export async function setChatAgent(db: Database, chatId: string, agentId: string): Promise<void> {
  await db.update(chat).set({ agentId }).where(eq(chat.id, chatId));
}

/** The sub-chat that runs a parent's `newTask` call (its latest attempt), if one was started. */
export async function findSubChatForCall(db: Database, parentChatId: string, toolCallId: string): Promise<ChatRow | undefined> {
  const [row] = await db
    .select()
    .from(chat)
    .where(and(eq(chat.parentChatId, parentChatId), eq(chat.parentToolCallId, toolCallId)))
    // A retried delegation has several attempts; the newest is the call's.
    .orderBy(desc(chat.attempt))
    .limit(1);
  return row;
}

/** Whether a sub-chat of this chat is still at work (a delegation of the browser flow, or a retried attempt). */
export async function hasRunningSubChat(db: Database, parentChatId: string): Promise<boolean> {
  const rows = await db
    .select({ id: chat.id })
    .from(chat)
    .where(and(eq(chat.parentChatId, parentChatId), eq(chat.status, 'running')))
    .limit(1);
  return rows.length > 0;
}

/** Marks a sub-chat cancelled, unless it has already ended. */
export async function cancelRunningSubChat(db: Database, id: string, result: string): Promise<void> {
  await db
    .update(chat)
    .set({ status: 'cancelled', outcome: 'cancelled', delegateResult: result })
    .where(and(eq(chat.id, id), eq(chat.status, 'running')));
}

export function statusForOutcome(outcome: DelegationOutcome): Exclude<SubChatStatus, 'running'> {
  return outcome === 'success' ? 'success' : outcome === 'cancelled' ? 'cancelled' : 'error';
}

/** After a run: usage totals, activity time, and for a sub-chat how its task ended. */
export async function recordTurnEnd(
  db: Database,
  chatId: string,
  end: {
    inputTokens: number;
    outputTokens: number;
    outcome?: { outcome: DelegationOutcome; result: string };
    /** Leave a sub-chat that already ended as it is (recovery after a crash). */
    onlyIfRunning?: boolean;
  },
): Promise<void> {
  await db
    .update(chat)
    .set({
      inputTokens: sql`${chat.inputTokens} + ${end.inputTokens}`,
      outputTokens: sql`${chat.outputTokens} + ${end.outputTokens}`,
      updatedAt: new Date(),
      ...(end.outcome ? { status: statusForOutcome(end.outcome.outcome), outcome: end.outcome.outcome, delegateResult: sanitizeText(end.outcome.result) } : {}),
    })
    .where(end.onlyIfRunning ? and(eq(chat.id, chatId), eq(chat.status, 'running')) : eq(chat.id, chatId));
}

/** A sub-agent's note, appended in one statement (notes written at once by parallel steps all stay). */
export async function appendNote(db: Database, chatId: string, text: string): Promise<void> {
  const note = { text: cutText(sanitizeText(text), MAX_NOTE_CHARS), createdAt: new Date().toISOString() };
  await db
    .update(chat)
    .set({ notes: sql`${chat.notes} || ${JSON.stringify([note])}::jsonb` })
    .where(eq(chat.id, chatId));
}

/** The sub-chats started for these calls of a parent chat (every attempt, oldest attempt first). */
export async function findSubChatsForCalls(db: Database, parentChatId: string, toolCallIds: string[]): Promise<ChatRow[]> {
  if (toolCallIds.length === 0) return [];
  return (
    db
      .select()
      .from(chat)
      .where(and(eq(chat.parentChatId, parentChatId), inArray(chat.parentToolCallId, toolCallIds)))
      // Oldest attempt first: a map from call to sub-chat built in this order keeps the newest.
      .orderBy(asc(chat.attempt))
  );
}

/**
 * Chats written before Baton had accounts belong to nobody; the owner account, created
 * once on an instance, takes them over.
 */
export async function adoptUnownedChats(db: Database, userId: string): Promise<void> {
  await db.update(chat).set({ userId }).where(isNull(chat.userId));
}
