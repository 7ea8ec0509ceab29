import { and, asc, eq, isNull } from 'drizzle-orm';
import type { ChatCreate, ChatListQuery } from '@baton/schemas';
import type { Database } from '../db/client';
import { chat } from '../db/schema';
import { AppError, invalidRequest, notFound } from '../errors';
import { newId } from '../ids';
import { findAgent } from './agents';
import { chatOrigin } from './chat-origin';
import type { ChatOwner, ChatRow } from './chat-rows';
import { lockRunsBelow } from './chat-subtree';
import { keysetOrder, keysetWhere } from './pagination';

/**
 * The chat queries a person's request reaches, each bound to the caller's scope
 * (`ChatOwner`: workspace + author), so another member's chat is "not found". SQL only:
 * rows in, rows out; the API's shape is the read model's (chat-read-model.ts). The
 * runtime's queries by id alone are in chats-by-id.ts, a sub-chat's delegation state in
 * sub-chat-state.ts.
 */

const ownedBy = (owner: ChatOwner) => and(eq(chat.workspaceId, owner.workspaceId), eq(chat.userId, owner.userId));
const ownedChat = (owner: ChatOwner, id: string) => and(ownedBy(owner), eq(chat.id, id));

// "Most recently active first": a chat's updated_at moves whenever a message is stored.
const topLevelKeyset = { at: chat.updatedAt, id: chat.id, direction: 'desc' } as const;

/** One page of the owner's top-level chats, `limit + 1` rows (the extra says whether another page exists). */
export async function topLevelChatRows(db: Database, owner: ChatOwner, query: ChatListQuery): Promise<ChatRow[]> {
  return db
    .select()
    .from(chat)
    .where(and(ownedBy(owner), isNull(chat.parentChatId), query.source && eq(chat.source, query.source), keysetWhere(topLevelKeyset, query.cursor)))
    .orderBy(...keysetOrder(topLevelKeyset))
    .limit(query.limit + 1);
}

export async function findChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(ownedChat(owner, id)).limit(1);
  return row;
}

export async function requireChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow> {
  const row = await findChat(db, owner, id);
  if (!row) throw notFound('Chat', id);
  return row;
}

/**
 * The chat, locked until the transaction ends: requests that would start a run on it
 * take turns, so each sees what the one before it committed.
 */
export async function lockChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(ownedChat(owner, id)).for('no key update');
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
export async function createChat(db: Database, owner: ChatOwner, input: ChatCreate): Promise<ChatRow> {
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
    return row;
  });
}

export async function renameChat(db: Database, owner: ChatOwner, id: string, title: string): Promise<ChatRow> {
  const [row] = await db.update(chat).set({ title }).where(ownedChat(owner, id)).returning();
  if (!row) throw notFound('Chat', id);
  return row;
}

/** Sub-chats, messages and runs go with it (ON DELETE CASCADE). */
export async function deleteChat(db: Database, owner: ChatOwner, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockRunsBelow(tx, [id]);
    const deleted = await tx.delete(chat).where(ownedChat(owner, id)).returning({ id: chat.id });
    if (deleted.length === 0) throw notFound('Chat', id);
  });
}

/** The sub-chats of one of the owner's chats, oldest first (404 for a chat that is not theirs). */
export async function subChatRows(db: Database, owner: ChatOwner, parentChatId: string): Promise<ChatRow[]> {
  await requireChat(db, owner, parentChatId);
  return db
    .select()
    .from(chat)
    .where(and(ownedBy(owner), eq(chat.parentChatId, parentChatId)))
    .orderBy(asc(chat.createdAt), asc(chat.id));
}

/**
 * Chats written before Baton had accounts belong to nobody; the owner account, created
 * once on an instance, takes them over: the one chat query of this module not scoped by an
 * owner, since those chats have none.
 */
export async function adoptUnownedChats(db: Database, userId: string): Promise<void> {
  await db.update(chat).set({ userId }).where(isNull(chat.userId));
}
