import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { errorCodes, MAX_PINNED_CHATS, type ChatCreate, type ChatListQuery, type ChatUpdate } from '@baton/schemas';
import type { Database } from '../db/client';
import { preparedQuery } from '../db/prepared-query';
import { chat } from '../db/schema';
import { AppError, invalidRequest, notFound } from '../errors';
import { newId } from '../ids';
import { findAgent } from './agents';
import { agentAndModelChanges } from './chat-agent';
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
  // Archived chats are their own list; pinned ones are listed apart (pinnedChatRows), on the first page.
  const filed = query.archived ? isNotNull(chat.archivedAt) : and(isNull(chat.archivedAt), isNull(chat.pinnedAt));
  return db
    .select()
    .from(chat)
    .where(and(ownedBy(owner), isNull(chat.parentChatId), filed, query.source && eq(chat.source, query.source), keysetWhere(topLevelKeyset, query.cursor)))
    .orderBy(...keysetOrder(topLevelKeyset))
    .limit(query.limit + 1);
}

/** The owner's pinned chats (at most MAX_PINNED_CHATS), most recently active first. */
export async function pinnedChatRows(db: Database, owner: ChatOwner, query: Pick<ChatListQuery, 'source'>): Promise<ChatRow[]> {
  return db
    .select()
    .from(chat)
    .where(and(ownedBy(owner), isNull(chat.parentChatId), isNotNull(chat.pinnedAt), query.source && eq(chat.source, query.source)))
    .orderBy(...keysetOrder(topLevelKeyset))
    .limit(MAX_PINNED_CHATS);
}

const ownedChatById = preparedQuery((db) =>
  db
    .select()
    .from(chat)
    .where(and(eq(chat.workspaceId, sql.placeholder('workspaceId')), eq(chat.userId, sql.placeholder('userId')), eq(chat.id, sql.placeholder('id'))))
    .limit(1)
    .prepare('find_owned_chat'),
);

export async function findChat(db: Database, owner: ChatOwner, id: string): Promise<ChatRow | undefined> {
  const [row] = await ownedChatById(db).execute({ workspaceId: owner.workspaceId, userId: owner.userId, id });
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

/**
 * Renames, pins or archives one of the owner's chats (archiving unpins it), or switches its
 * agent or model (chat-agent.ts). Only top-level chats are pinned, archived or switched. Pins are capped per person and workspace (they are all on
 * the list's first page); pinning takes turns per person under a transaction-scoped
 * advisory lock, so two pins at once cannot pass the cap.
 */
export async function updateChat(db: Database, owner: ChatOwner, id: string, patch: ChatUpdate): Promise<ChatRow> {
  return db.transaction(async (tx) => {
    if (patch.pinned) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`chat-pins:${owner.workspaceId}:${owner.userId}`}))`);
    const [current] = await tx.select().from(chat).where(ownedChat(owner, id)).for('no key update');
    if (!current) throw notFound('Chat', id);
    if ((patch.pinned !== undefined || patch.archived !== undefined) && current.parentChatId)
      throw invalidRequest('Only top-level chats can be pinned or archived; this is a sub-agent’s chat.');
    if (patch.pinned && current.pinnedAt === null) {
      const [{ pinned }] = (await tx
        .select({ pinned: count() })
        .from(chat)
        .where(and(ownedBy(owner), isNotNull(chat.pinnedAt)))) as [{ pinned: number }];
      if (pinned >= MAX_PINNED_CHATS) throw new AppError(409, errorCodes.conflict, `At most ${MAX_PINNED_CHATS} chats can be pinned; unpin one first.`);
    }
    const now = new Date();
    const changes: Partial<ChatRow> = await agentAndModelChanges(tx, current, patch);
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.archived !== undefined) changes.archivedAt = patch.archived ? (current.archivedAt ?? now) : null;
    if (patch.archived) changes.pinnedAt = null;
    if (patch.pinned !== undefined) changes.pinnedAt = patch.pinned ? (current.pinnedAt ?? now) : null;
    // Pinning takes a chat out of the archive: the two are exclusive.
    if (patch.pinned) changes.archivedAt = null;
    // Switching to the agent the chat already has changes nothing.
    if (Object.keys(changes).length === 0) return current;
    const [row] = await tx.update(chat).set(changes).where(eq(chat.id, id)).returning();
    return row!;
  });
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
