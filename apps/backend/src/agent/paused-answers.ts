import { CANCELLED_RESULT, newTaskCalls, toNewTaskOutput } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';
import type { UIMessage } from 'ai';
import type { Database } from '../db/client';
import { logError } from '../error-text';
import { newId } from '../ids';
import { findAgent } from '../services/agents';
import { cancelRunningSubChat, findChatById, findSubChatsForCalls, lockChatById } from '../services/chats';
import { loadHistory, upsertMessage } from '../services/messages';
import { awaitingCalls, cancelAwaitingRuns, chatsWithPausedAnswers, settleAwaitingRuns } from '../services/pending-approvals';
import { findActiveRun, insertRun, latestRunForMessage, type RunRow } from '../services/runs';
import { outputForSubChat, rootSettingsOf } from './delegation-tree';
import { startTurn } from './runs/execute-run';
import { signalStop, waitForRunEnd } from './runs/run-control';
import { settleUnfinishedCalls, type CallSubChat } from './runs/unfinished-calls';
import type { ChatRow, RuntimeDeps, TurnInput } from './turn';

// An answer whose sub-agent waits for a person below it (nested approval, the root's
// `requireApproval`) does not wait running: its run ends `awaiting_approval` with the call
// unfinished (server-delegation.ts pauses it), the answer above it pauses the same way, and
// so on up to the top — nothing is held in memory, so the chain survives restarts. When the
// waiting sub-chat is decided, resumed and has ended, its parent's answer is continued with
// its output (a new run on the same message, like a retried delegation's continuation), and
// that answer's end hands its own output up in turn.

/** How long Stop waits for each resumed sub-agent below to store its end. */
const STOP_WAIT_MS = 10_000;

/** The newTask calls of a paused answer that still lack their output, with their newest sub-chats. */
async function unfinishedCalls(db: Database, chat: ChatRow, last: UIMessage) {
  const ids = newTaskCalls(last as BatonUIMessage)
    .filter((c) => !c.output && !c.errorText && c.state !== 'approval-requested')
    .map((c) => c.toolCallId);
  // Oldest attempt first: the map keeps each call's newest sub-chat.
  const subChats = new Map((await findSubChatsForCalls(db, chat.id, ids)).map((row) => [row.parentToolCallId!, row]));
  return { ids, subChats };
}

/**
 * The paused calls as unfinished parts: a call whose progress stood in for its output when
 * the run paused may have been stored without one; either way its sub-chat's output goes in.
 */
function asUnfinished(message: UIMessage, ids: string[]): UIMessage {
  const parts = message.parts.map((p) => {
    const part = p as unknown as { toolCallId?: string; state?: string };
    return part.toolCallId && ids.includes(part.toolCallId) && part.state === 'output-available' ? { ...p, preliminary: true } : p;
  });
  return { ...message, parts: parts as UIMessage['parts'] };
}

/** The chat's last answer when it is paused (its latest run `awaiting_approval`), else undefined. */
async function pausedAnswer(db: Database, chat: ChatRow) {
  const history = await loadHistory(db, chat.id);
  const last = history.at(-1);
  if (!last || last.role !== 'assistant') return undefined;
  const paused = await latestRunForMessage(db, chat.id, last.id);
  if (paused?.status !== 'awaiting_approval') return undefined;
  return { history, last, paused };
}

/**
 * Continues the chat's paused answer when every unfinished call's sub-chat has ended: the
 * calls get those sub-chats' outputs and a new run goes on from there. Called when a
 * sub-chat's run ends (for its parent) and when an answer pauses (a sibling may have ended
 * first). Anything else — an answer still running, a call still waiting for a person, a
 * sub-chat still at work — leaves it as it is; the chat lock orders concurrent callers.
 */
export async function continuePausedAnswer(deps: RuntimeDeps, chatId: string): Promise<void> {
  if (deps.runs.draining) return;
  const input = await deps.db.transaction(async (tx): Promise<TurnInput | undefined> => {
    const chat = await lockChatById(tx, chatId);
    if (!chat || (chat.parentChatId && chat.status !== 'running') || (await findActiveRun(tx, chat.id))) return undefined;
    const answer = await pausedAnswer(tx, chat);
    if (!answer || awaitingCalls(answer.last).length > 0) return undefined;
    const { ids, subChats } = await unfinishedCalls(tx, chat, answer.last);
    if (ids.length === 0 || ids.some((id) => subChats.get(id)?.status === 'running' || !subChats.has(id))) return undefined;
    const root = await rootSettingsOf(tx, chat.workspaceId, chat.id);
    const outputs = new Map<string, CallSubChat>();
    for (const [id, row] of subChats) outputs.set(id, { id: row.id, output: await outputForSubChat(tx, row, root) });
    const merged = settleUnfinishedCalls(asUnfinished(answer.last, ids), { mode: 'server', subChats: outputs });
    const agent = chat.agentId ? await findAgent(tx, chat.workspaceId, chat.agentId) : undefined;
    if (!agent) return undefined;
    await upsertMessage(tx, chat.id, merged);
    await settleAwaitingRuns(tx, chat.id);
    const run = await insertRun(tx, {
      id: newId('run'),
      chatId: chat.id,
      workspaceId: chat.workspaceId,
      kind: chat.parentChatId ? 'sub_agent' : 'turn',
      mode: answer.paused.mode,
      messageId: merged.id,
      basePartCount: merged.parts.length,
      owner: deps.runs.owner,
    });
    if (!run) return undefined;
    return { workspaceId: chat.workspaceId, chat, agent, history: [...answer.history.slice(0, -1), merged], mode: answer.paused.mode, run };
  });
  // Its end hands its output up in turn (execute-run.ts calls this for the parent).
  if (input) startTurn(deps, input);
}

/** Fire and forget, for the end of a run: a failure is logged, the chain stays paused and listed. */
export function handOnAfterRunEnd(deps: RuntimeDeps, chat: ChatRow, paused: boolean): void {
  const target = paused ? chat.id : chat.parentChatId;
  if (!target) return;
  void continuePausedAnswer(deps, target).catch((err) => logError('continuing a paused answer failed', err));
}

/** Sub-agent runs that recovery ended `interrupted`: a paused answer above one of them goes on with that outcome. */
export function handOnAfterRecovery(deps: RuntimeDeps, runs: RunRow[]): void {
  for (const run of runs) {
    if (run.kind !== 'sub_agent') continue;
    void findChatById(deps.db, run.chatId)
      .then((chat) => chat && handOnAfterRunEnd(deps, chat, false))
      .catch((err) => logError('continuing a paused answer after recovery failed', err));
  }
}

/**
 * At start-up: a paused answer whose sub-chats all ended while the previous process was
 * shutting down (it continues nothing then) goes on now. Chats whose answer still waits
 * for a person or a sub-agent are left as they are.
 */
export async function continueReadyPausedAnswers(deps: RuntimeDeps): Promise<void> {
  for (const chatId of await chatsWithPausedAnswers(deps.db)) {
    await continuePausedAnswer(deps, chatId).catch((err) => logError('continuing a paused answer at start-up failed', err));
  }
}

/**
 * Stop on a paused answer whose sub-agents wait below it: each of them ends `cancelled`
 * (depth first; one resumed meanwhile is stopped), then the answer's calls get those
 * outcomes and its paused run ends `cancelled`. False when nothing of the kind waits.
 */
export async function stopPausedAnswer(deps: RuntimeDeps, chat: ChatRow): Promise<boolean> {
  const answer = await pausedAnswer(deps.db, chat);
  if (!answer) return false;
  const { subChats } = await unfinishedCalls(deps.db, chat, answer.last);
  const working = [...subChats.values()].filter((row) => row.status === 'running');
  if (working.length === 0) return false;
  // Ended first: a sub-agent stopped below then finds nothing paused to continue.
  await cancelAwaitingRuns(deps.db, chat.id);
  for (const row of working) await cancelPausedSubChat(deps, row);
  await deps.db.transaction(async (tx) => {
    const locked = await lockChatById(tx, chat.id);
    const last = locked && (await loadHistory(tx, chat.id)).at(-1);
    if (!locked || last?.id !== answer.last.id) return;
    const root = await rootSettingsOf(tx, chat.workspaceId, chat.id);
    const { subChats: ended } = await unfinishedCalls(tx, locked, last);
    const outputs = new Map<string, CallSubChat>();
    for (const [id, row] of ended) outputs.set(id, { id: row.id, output: await outputForSubChat(tx, row, root) });
    const settled = settleUnfinishedCalls(last, { mode: 'server', subChats: outputs });
    await upsertMessage(tx, chat.id, { ...settled, metadata: { ...(settled.metadata as object | undefined), stopped: true } });
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
  await settleAwaitingRuns(deps.db, row.id);
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
  const { ids, subChats } = await unfinishedCalls(deps.db, chat, last);
  if (ids.length === 0) return false;
  for (const row of subChats.values()) if (row.status === 'running') await cancelPausedSubChat(deps, row);
  return deps.db.transaction(async (tx) => {
    const locked = await lockChatById(tx, chat.id);
    const current = locked && (await loadHistory(tx, chat.id)).at(-1);
    // The browser's continuation got there first: that answer is the one to stop now.
    if (!locked || current?.id !== last.id || (await findActiveRun(tx, chat.id))) return false;
    const root = await rootSettingsOf(tx, chat.workspaceId, chat.id);
    const { ids: waiting, subChats: ended } = await unfinishedCalls(tx, locked, current);
    const outputs = new Map<string, CallSubChat>();
    for (const [id, row] of ended) outputs.set(id, { id: row.id, output: await outputForSubChat(tx, row, root) });
    const never = toNewTaskOutput({ outcome: 'cancelled', result: CANCELLED_RESULT, subChatId: null });
    for (const id of waiting) if (!outputs.has(id)) outputs.set(id, { id: '', output: never });
    const settled = settleUnfinishedCalls(current, { mode: 'server', subChats: outputs });
    await upsertMessage(tx, chat.id, { ...settled, metadata: { ...(settled.metadata as object | undefined), stopped: true } });
    return true;
  });
}
