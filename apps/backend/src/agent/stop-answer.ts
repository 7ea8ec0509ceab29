import { CANCELLED_RESULT, toNewTaskOutput } from '@baton/delegation';
import { cancelRunningSubChat, isSubChatRunning } from '../services/sub-chat-state';
import { lockChatById } from '../services/chats-by-id';
import { requireChat } from '../services/chat-repository';
import type { ChatOwner } from '../services/chat-rows';
import { loadHistory, upsertMessage } from '../services/messages';
import { findActiveRun } from '../services/runs';
import { outputForSubChat, rootSettingsOf } from './delegation-tree';
import { pausedAnswer, callsAtWork } from './paused-answer-state';
import { signalStop, waitForRunEnd } from './runs/run-control';
import { transitionRuns } from './runs/run-lifecycle';
import { settleUnfinishedCalls, type CallSubChat } from './runs/unfinished-calls';
import type { ChatRow, RuntimeDeps } from './runtime-types';

// Stop on an answer: a running one, one paused on sub-agents waiting below it (ADR 0021), or
// one waiting for the sub-agents the browser runs. Nothing here starts a run, so the sub-agent
// runner (server-delegation.ts) may cancel what is below it without importing the run loop.

/** How long Stop waits for a stopped run — the chat's own, or each resumed sub-agent below — to store its end. */
const STOP_WAIT_MS = 10_000;

/** The Stop button: stops the chat's running turn and waits until what it wrote is stored. */
export async function stopChat(deps: RuntimeDeps, owner: ChatOwner, chatId: string): Promise<boolean> {
  const chat = await requireChat(deps.db, owner, chatId);
  const run = await findActiveRun(deps.db, chatId);
  // An answer paused on sub-agents waiting below it, or waiting for the ones the browser runs:
  // they end cancelled, and the answer with them.
  if (!run) return !chat.parentChatId && ((await stopPausedAnswer(deps, chat)) || (await stopWaitingAnswer(deps, chat)));
  await signalStop(deps, run);
  await waitForRunEnd(deps, run.id, STOP_WAIT_MS);
  // It was pausing when Stop came (a sub-agent below had just begun to wait): stop that too.
  if (!chat.parentChatId) await stopPausedAnswer(deps, chat);
  return true;
}

/**
 * Stop on a paused answer whose sub-agents wait below it: each of them ends `cancelled`
 * (depth first; one resumed meanwhile is stopped), then the answer's calls get those
 * outcomes and its paused run ends `cancelled`. False when nothing of the kind waits.
 */
export async function stopPausedAnswer(deps: RuntimeDeps, chat: ChatRow): Promise<boolean> {
  const answer = await pausedAnswer(deps.db, chat);
  if (!answer) return false;
  const { subChats } = await callsAtWork(deps.db, chat, answer.last);
  const working = [...subChats.values()].filter(isSubChatRunning);
  if (working.length === 0) return false;
  // Ended first: a sub-agent stopped below then finds nothing paused to continue.
  await transitionRuns(deps.db, { chatId: chat.id }, 'awaiting_approval', 'cancelled');
  for (const row of working) await cancelPausedSubChat(deps, row);
  await deps.db.transaction(async (tx) => {
    const locked = await lockChatById(tx, chat.id);
    const last = locked && (await loadHistory(tx, chat.id)).at(-1);
    if (!locked || last?.id !== answer.last.id) return;
    const root = await rootSettingsOf(tx, chat.workspaceId, chat.id);
    const { subChats: ended } = await callsAtWork(tx, locked, last);
    const outputs = new Map<string, CallSubChat>();
    for (const [id, row] of ended) outputs.set(id, { id: row.id, output: await outputForSubChat(tx, row, root) });
    const settled = settleUnfinishedCalls(last, { mode: 'server', subChats: outputs });
    await upsertMessage(tx, chat.id, { ...settled, metadata: { ...settled.metadata, stopped: true } });
  });
  return true;
}

/** A sub-chat below a stopped answer ends `cancelled`: its own paused answer first, or its resumed run stopped. */
export async function cancelPausedSubChat(deps: RuntimeDeps, row: ChatRow): Promise<void> {
  const active = await findActiveRun(deps.db, row.id);
  if (active) {
    await signalStop(deps, active);
    await waitForRunEnd(deps, active.id, STOP_WAIT_MS);
  } else await stopPausedAnswer(deps, row);
  await cancelRunningSubChat(deps.db, row.id, CANCELLED_RESULT);
  await transitionRuns(deps.db, { chatId: row.id }, 'awaiting_approval', 'succeeded');
}

/**
 * Stop on a top-level answer that waits for the sub-agents the browser runs (its run ended on
 * `newTask` calls without outputs): each sub-chat still at work ends `cancelled` (with what is
 * below it), every call gets its output — its sub-chat's, or `cancelled` for one whose
 * sub-agent never started — and the answer is marked stopped, so nothing continues it. Calls
 * waiting for a person's decision stay as they are. False when no call waits.
 */
export async function stopWaitingAnswer(deps: RuntimeDeps, chat: ChatRow): Promise<boolean> {
  const last = (await loadHistory(deps.db, chat.id)).at(-1);
  if (!last || last.role !== 'assistant') return false;
  const { ids, subChats } = await callsAtWork(deps.db, chat, last);
  if (ids.length === 0) return false;
  for (const row of subChats.values()) if (isSubChatRunning(row)) await cancelPausedSubChat(deps, row);
  return deps.db.transaction(async (tx) => {
    const locked = await lockChatById(tx, chat.id);
    const current = locked && (await loadHistory(tx, chat.id)).at(-1);
    // The browser's continuation got there first: that answer is the one to stop now.
    if (!locked || current?.id !== last.id || (await findActiveRun(tx, chat.id))) return false;
    const root = await rootSettingsOf(tx, chat.workspaceId, chat.id);
    const { ids: waiting, subChats: ended } = await callsAtWork(tx, locked, current);
    const outputs = new Map<string, CallSubChat>();
    for (const [id, row] of ended) outputs.set(id, { id: row.id, output: await outputForSubChat(tx, row, root) });
    const never = toNewTaskOutput({ outcome: 'cancelled', result: CANCELLED_RESULT, subChatId: null });
    for (const id of waiting) if (!outputs.has(id)) outputs.set(id, { id: '', output: never });
    const settled = settleUnfinishedCalls(current, { mode: 'server', subChats: outputs });
    await upsertMessage(tx, chat.id, { ...settled, metadata: { ...settled.metadata, stopped: true } });
    return true;
  });
}
