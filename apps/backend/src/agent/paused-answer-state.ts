import { isCallAtWork, newTaskCalls } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { findSubChatsForCalls } from '../services/sub-chat-state';
import { loadHistory } from '../services/messages';
import { latestRunForMessage } from '../services/runs';
import type { ChatRow } from './runtime-types';

// What both continuing a paused answer (paused-answers.ts) and stopping one (stop-answer.ts)
// read of it; here, below both, so neither imports the other.

/** The newTask calls of a paused answer at work (no outcome, not waiting for a person), with their newest sub-chats. */
export async function callsAtWork(db: Database, chat: ChatRow, last: BatonUIMessage) {
  const ids = newTaskCalls(last)
    .filter(isCallAtWork)
    .map((c) => c.toolCallId);
  // Oldest attempt first: the map keeps each call's newest sub-chat.
  const subChats = new Map((await findSubChatsForCalls(db, chat.id, ids)).map((row) => [row.parentToolCallId!, row]));
  return { ids, subChats };
}

/** The chat's last answer when it is paused (its latest run `awaiting_approval`), else undefined. */
export async function pausedAnswer(db: Database, chat: ChatRow) {
  const history = await loadHistory(db, chat.id);
  const last = history.at(-1);
  if (!last || last.role !== 'assistant') return undefined;
  const paused = await latestRunForMessage(db, chat.id, last.id);
  if (paused?.status !== 'awaiting_approval') return undefined;
  return { history, last, paused };
}
