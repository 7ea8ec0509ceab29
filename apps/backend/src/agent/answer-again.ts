import { newTaskCalls } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { invalidRequest } from '../errors';
import { deleteReplacedSubChats } from '../services/chats-by-id';
import { findSubChatsForCalls } from '../services/sub-chat-state';
import { deleteMessagesAfter, upsertMessage } from '../services/messages';
import { activeRunsInTree, type RunRow } from '../services/runs';
import { transitionRuns } from './runs/run-lifecycle';
import type { ChatRow } from './runtime-types';

/** A stored user message's text, its parts joined as they were when it was sent. */
export const userMessageText = (message: BatonUIMessage) => message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

/**
 * The last user message of a top-level chat, which Regenerate answers again and an edit
 * rewrites: earlier messages are history that later answers built on, so they stay as they are.
 */
export function lastUserMessage(chat: ChatRow, history: BatonUIMessage[], messageId: string, doing: string): BatonUIMessage {
  const lastUser = history.findLast((m) => m.role === 'user');
  if (chat.parentChatId || !lastUser || lastUser.id !== messageId) {
    throw invalidRequest(`message: only the last user message of a top-level chat can be ${doing}`);
  }
  return lastUser;
}

/**
 * Clears the way for a new answer to the last user message (optionally with its text
 * replaced): the answer after it goes, and the sub-chats that answer delegated to go with
 * it. Their running turns are returned, to be stopped once the transaction has committed.
 * Returns the history the new answer is written for.
 */
export async function replaceAnswerTo(
  tx: Database,
  chat: ChatRow,
  history: BatonUIMessage[],
  lastUser: BatonUIMessage,
  edited?: BatonUIMessage,
): Promise<{ history: BatonUIMessage[]; orphaned: RunRow[] }> {
  const at = history.indexOf(lastUser);
  const replaced = history.slice(at + 1);
  const callIds = replaced.flatMap((m) => newTaskCalls(m).map((c) => c.toolCallId));
  const replacedSubChats = await findSubChatsForCalls(tx, chat.id, callIds);
  const orphaned: RunRow[] = [];
  for (const subChat of replacedSubChats) orphaned.push(...(await activeRunsInTree(tx, subChat.id)));
  // What they spent still counts for the chat (its `replaced_*` tokens).
  await deleteReplacedSubChats(
    tx,
    chat.id,
    replacedSubChats.map((c) => c.id),
  );
  await deleteMessagesAfter(tx, chat.id, lastUser.id);
  // A replaced answer that waited for approval waits no more.
  await transitionRuns(tx, { chatId: chat.id }, 'awaiting_approval', 'succeeded');
  // The message keeps its id and its place (upsert by id); only its text changes.
  if (edited) await upsertMessage(tx, chat.id, edited);
  return { history: [...history.slice(0, at), edited ?? lastUser], orphaned };
}
