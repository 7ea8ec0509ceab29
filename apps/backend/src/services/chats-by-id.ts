import { and, eq } from 'drizzle-orm';
import type { BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { chat } from '../db/schema';
import { AppError, invalidRequest } from '../errors';
import { takenChatId } from './chat-repository';
import type { ChatRow, NewChatRow } from './chat-rows';
import { insertFirstMessage } from './messages';
import { findSubChatForCall } from './sub-chat-state';

/**
 * The runtime's chat queries, by id alone: the runtime got the id from a chat it already
 * holds (a run's chat, a parent of a sub-chat), so the owner was checked when that began.
 * A person's request never reaches these without an owner-scoped read first
 * (chat-repository.ts).
 */

export async function findChatById(db: Database, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(eq(chat.id, id)).limit(1);
  return row;
}

/** `lockChat` by id alone. */
export async function lockChatById(db: Database, id: string): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chat).where(eq(chat.id, id)).for('no key update');
  return row;
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

/** A new agent for the chat's next turns; a model override was a model of the previous agent's provider, so it goes. */
export async function setChatAgent(db: Database, chatId: string, agentId: string): Promise<void> {
  await db.update(chat).set({ agentId, modelOverride: null }).where(eq(chat.id, chatId));
}

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
