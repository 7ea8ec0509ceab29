import { titleFromText, type ChatWithMessages } from '@baton/schemas';
import type { Database } from '../db/client';
import { AppError, notFound } from '../errors';
import { getChatWithMessages } from '../services/chat-read-model';
import { lockChat, renameChat } from '../services/chat-repository';
import type { ChatOwner } from '../services/chat-rows';
import { activateVersion } from '../services/message-branches';
import { firstMessage } from '../services/messages';
import { findActiveRun, hasPausedRun } from '../services/runs';
import { hasRunningSubChat } from '../services/sub-chat-state';
import { userMessageText } from './answer-again';
import { chatBusy } from './runs/run-lifecycle';

/**
 * `‹ 2/3 ›`: makes a stored version of a message the chosen one, and the conversation below it
 * the branch chosen there before. On the locked chat, like a new message: never while an answer
 * is being written, waits for a decision, or has sub-agents at work — switching away would leave
 * them writing into, or waiting on, a branch no one sees. A title the first message gave
 * follows it. Returns the chat as `GET` shows it.
 */
export async function switchToVersion(db: Database, owner: ChatOwner, chatId: string, messageId: string): Promise<ChatWithMessages> {
  await db.transaction(async (tx) => {
    const chat = await lockChat(tx, owner, chatId);
    if (!chat) throw notFound('Chat', chatId);
    if (await findActiveRun(tx, chat.id)) throw chatBusy('this chat is answering: wait for it to finish, or stop it, before switching versions');
    if (await hasPausedRun(tx, chat.id)) {
      throw new AppError(409, 'conflict', 'the last answer is waiting for approval of a delegation: approve or reject first, then switch versions');
    }
    if (await hasRunningSubChat(tx, chat.id)) {
      throw new AppError(409, 'conflict', 'a sub-agent of the last answer is still working: wait for its result (or stop it) before switching versions');
    }
    const firstBefore = await firstMessage(tx, chat.id);
    if (!(await activateVersion(tx, chat.id, messageId))) throw notFound('Message', messageId);
    // A title the first message gave follows the version shown, as it followed the edit; one the person chose stays.
    const firstAfter = await firstMessage(tx, chat.id);
    if (!firstBefore || !firstAfter || firstAfter.id === firstBefore.id) return;
    const [before, after] = [userMessageText(firstBefore), userMessageText(firstAfter)];
    if (after.trim() && chat.title === titleFromText(before)) await renameChat(tx, owner, chat.id, titleFromText(after));
  });
  return getChatWithMessages(db, owner, chatId);
}
