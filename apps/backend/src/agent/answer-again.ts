import { CANCELLED_RESULT, newTaskCalls } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { invalidRequest } from '../errors';
import { answerAgainAfter, storeEditedVersion } from '../services/message-branches';
import { cancelRunningSubChat, findSubChatsForCalls, isSubChatRunning } from '../services/sub-chat-state';
import { activeRunsInTree, type RunRow } from '../services/runs';
import { transitionRuns } from './runs/run-lifecycle';
import type { ChatRow } from './runtime-types';

/** A stored user message's text, its parts joined as they were when it was sent. */
export const userMessageText = (message: BatonUIMessage) => message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

/**
 * A user message of a top-level chat's active branch, which Regenerate answers again and an
 * edit rewrites: either starts a new branch there, the old one kept as a version.
 */
export function userMessageToAnswer(chat: ChatRow, history: BatonUIMessage[], messageId: string, doing: string): BatonUIMessage {
  const target = history.find((m) => m.id === messageId);
  if (chat.parentChatId || !target || target.role !== 'user') {
    throw invalidRequest(`message: only a user message of a top-level chat can be ${doing}`);
  }
  return target;
}

/**
 * Clears the way for a new answer to a user message of the active branch (optionally with its
 * text replaced): the answers after it become an inactive branch, kept as versions, with the
 * sub-chats they delegated to (which belong to that branch). Sub-agents still at work there
 * are cancelled — their running turns are returned, to be stopped once the transaction has
 * committed — and a paused answer there waits no more. Returns the history the new answer is
 * written for.
 */
export async function branchAt(
  tx: Database,
  chat: ChatRow,
  history: BatonUIMessage[],
  target: BatonUIMessage,
  edited?: BatonUIMessage,
): Promise<{ history: BatonUIMessage[]; orphaned: RunRow[] }> {
  const at = history.indexOf(target);
  const left = history.slice(at + 1);
  const callIds = left.flatMap((m) => newTaskCalls(m).map((c) => c.toolCallId));
  const orphaned: RunRow[] = [];
  for (const subChat of await findSubChatsForCalls(tx, chat.id, callIds)) {
    if (!isSubChatRunning(subChat)) continue;
    await cancelRunningSubChat(tx, subChat.id, CANCELLED_RESULT);
    orphaned.push(...(await activeRunsInTree(tx, subChat.id)));
    await transitionRuns(tx, { chatId: subChat.id }, 'awaiting_approval', 'succeeded');
  }
  // An answer left behind that waited for approval waits no more.
  await transitionRuns(tx, { chatId: chat.id }, 'awaiting_approval', 'succeeded');
  const stored = edited ? await storeEditedVersion(tx, chat.id, edited) : await answerAgainAfter(tx, chat.id, target.id);
  if (!stored) throw invalidRequest(`message: "${target.id}" is not on the chat's active branch`);
  return { history: [...history.slice(0, at), edited ?? target], orphaned };
}
