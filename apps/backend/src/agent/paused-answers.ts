import { isToolCallPart, withCallState } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';
import { logError } from '../error-text';
import { findAgent } from '../services/agents';
import { findChatById } from '../services/chats-by-id';
import { isSubChatRunning } from '../services/sub-chat-state';
import { upsertMessage } from '../services/messages';
import { awaitingCalls, chatsWithPausedAnswers } from '../services/pending-approvals';
import type { RunRow } from '../services/runs';
import { outputForSubChat, rootSettingsOf } from './delegation-tree';
import { pausedAnswer, callsAtWork } from './paused-answer-state';
import { startTurn } from './runs/execute-run';
import { admitRun, transitionRuns } from './runs/run-lifecycle';
import { settleUnfinishedCalls, type CallSubChat } from './runs/unfinished-calls';
import type { ChatRow, RuntimeDeps } from './runtime-types';

// An answer whose sub-agent waits for a person below it (nested approval, the root's
// `requireApproval`) does not wait running: its run ends `awaiting_approval` with the call
// unfinished (server-delegation.ts pauses it), the answer above it pauses the same way, and
// so on up to the top — nothing is held in memory, so the chain survives restarts. When the
// waiting sub-chat is decided, resumed and has ended, its parent's answer is continued with
// its output (a new run on the same message, like a retried delegation's continuation), and
// that answer's end hands its own output up in turn.

/**
 * The paused calls as unfinished parts: a call whose progress stood in for its output when
 * the run paused may have been stored without one; either way its sub-chat's output goes in.
 */
function asUnfinished(message: BatonUIMessage, ids: string[]): BatonUIMessage {
  const parts = message.parts.map((p) =>
    isToolCallPart(p) && p.toolCallId && ids.includes(p.toolCallId) && p.state === 'output-available'
      ? withCallState(p, { state: p.state, preliminary: true })
      : p,
  );
  return { ...message, parts };
}

/**
 * Continues the chat's paused answer when every unfinished call's sub-chat has ended: the
 * calls get those sub-chats' outputs and a new run goes on from there. Called when a
 * sub-chat's run ends (for its parent) and when an answer pauses (a sibling may have ended
 * first). Anything else — an answer still running, a call still waiting for a person, a
 * sub-chat still at work — leaves it as it is; the chat lock orders concurrent callers.
 */
export async function continuePausedAnswer(deps: RuntimeDeps, chatId: string): Promise<void> {
  const input = await admitRun(deps, { chat: { id: chatId }, by: 'server' }, async ({ tx, chat, assertIdle, admit }) => {
    if (chat.parentChatId && !isSubChatRunning(chat)) return undefined;
    await assertIdle();
    const answer = await pausedAnswer(tx, chat);
    if (!answer || awaitingCalls(answer.last).length > 0) return undefined;
    const { ids, subChats } = await callsAtWork(tx, chat, answer.last);
    if (ids.length === 0 || ids.some((id) => !subChats.has(id) || isSubChatRunning(subChats.get(id)!))) return undefined;
    const root = await rootSettingsOf(tx, chat.workspaceId, chat.id);
    const outputs = new Map<string, CallSubChat>();
    for (const [id, row] of subChats) outputs.set(id, { id: row.id, output: await outputForSubChat(tx, row, root) });
    const merged = settleUnfinishedCalls(asUnfinished(answer.last, ids), { mode: 'server', subChats: outputs });
    const agent = chat.agentId ? await findAgent(tx, chat.workspaceId, chat.agentId) : undefined;
    if (!agent) return undefined;
    await upsertMessage(tx, chat.id, merged);
    // The paused run is done; the answer goes on in a continuation of the same message.
    await transitionRuns(tx, { chatId: chat.id }, 'awaiting_approval', 'succeeded');
    return admit({ agent, history: [...answer.history.slice(0, -1), merged], mode: answer.paused.mode });
  });
  // Its end hands its output up in turn (handOnAfterRunEnd, for the parent).
  if (input) startTurn(deps, input);
}

/**
 * Fire and forget, for the end of a run (the composition root subscribes it to
 * `RunRegistry.onRunEnded`, app.ts): a failure is logged, the chain stays paused and listed.
 */
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
