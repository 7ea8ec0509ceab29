'use client';

import type { Chat as ChatSession } from '@ai-sdk/react';
import { CANCELLED_RESULT, countSteps, hasOutputOrError, isNewTaskPart, isToolCallPart, toNewTaskOutput } from '@baton/delegation';
import { NEW_TASK_TOOL, type BatonUIMessage, type Chat, type ChatWithMessages, type DelegationOutcome, type TokenUsage } from '@baton/schemas';
import { api } from '@/lib/api-client';
import { followChat, peekChatSession } from '@/lib/chat-sessions';
import { stopFollowing } from '@/lib/follow-server-run';
import { readChat } from '@/lib/queries';
import { isFinished, useDelegationStore } from '@/stores/delegation-store';
import { releaseSlot } from './delegation-slots';
import { outcomeOfSubChat } from './sub-chat-outcome';
import { toUIMessages } from '@/lib/stored-messages';

/*
 * The end of a delegation: record how it finished and hand its `newTask` output
 * (`toNewTaskOutput`, the same shape the server flow gives) to the parent's pending call.
 * For a call whose sub-chat ended, the server stores its own output instead (outcome,
 * capped result and subtree usage from the sub-chat); this one matters for the calls
 * without a sub-chat (batch limit, not a sub-agent, failed start) and for what this page shows. The parent's session resends by itself
 * (sendAutomaticallyWhen) once every pending call of its message has an output.
 *
 * When another tab started the sub-chat, that tab hands the result over and continues the
 * parent; this tab then follows that continuation instead of sending its own.
 */

/** How long a tab waits for the tab that started a sub-chat to continue the parent (it may have been closed). */
const HAND_OVER_MS = 3_000;
/** How often it looks meanwhile. */
const HAND_OVER_CHECK_MS = 300;

export interface Outcome {
  outcome: DelegationOutcome;
  result: string;
  subChatId: string | null;
  usage?: TokenUsage;
  steps?: number;
  startedAt?: number;
  finishedAt?: number;
}

/** Records the outcome (the first one wins) and delivers it to the parent. */
export function finishDelegation(key: string, outcome: Outcome) {
  const current = useDelegationStore.getState().delegations[key];
  if (!current || isFinished(current.status)) return;
  releaseSlot(key);
  recordOutcome(key, outcome);
  deliverDelegation(key);
}

function recordOutcome(key: string, outcome: Outcome) {
  const { delegations, update } = useDelegationStore.getState();
  const current = delegations[key];
  if (!current) return;
  const output = toNewTaskOutput({ ...outcome, maxResultChars: current.maxResultChars });
  update(key, {
    status: outcome.outcome,
    result: output.result,
    truncated: output.truncated,
    usage: output.usage,
    subChatId: outcome.subChatId,
    finishedAt: outcome.finishedAt ?? Date.now(),
    ...(outcome.steps !== undefined ? { steps: outcome.steps } : {}),
    ...(outcome.startedAt !== undefined ? { startedAt: outcome.startedAt } : {}),
  });
}

/** A sub-chat's outcome as stored: how it ended, its result, usage, times and (with its messages) steps. */
export function storedOutcome(chat: Chat | ChatWithMessages): Outcome {
  const outcome = outcomeOfSubChat(chat);
  return {
    outcome,
    result: chat.delegateResult ?? (outcome === 'success' ? '' : 'The sub-agent reported no result.'),
    subChatId: chat.id,
    // With its messages, the chat also has the usage of its whole subtree; a listed one only its own.
    usage: 'usage' in chat ? chat.usage.total : { inputTokens: chat.inputTokens, outputTokens: chat.outputTokens },
    ...storedTimes(chat),
    ...('messages' in chat ? { steps: countSteps(toUIMessages(chat.messages)) } : {}),
  };
}

function isPendingIn(session: ChatSession<BatonUIMessage>, toolCallId: string): boolean {
  // Only the last message's calls can still receive outputs (the server accepts nothing else).
  const last = session.messages.at(-1);
  if (last?.role !== 'assistant') return false;
  return last.parts.some((p) => isNewTaskPart(p) && p.toolCallId === toolCallId && (p.state === 'input-available' || p.state === 'approval-responded'));
}

/**
 * Gives a finished delegation's output to the parent session (one per chat for the page's
 * life: chat-sessions.ts), if that session still waits for it. Safe to call again: the
 * store's `delivered` says it was handed over (or must not be: a quiet cancel).
 */
export function deliverDelegation(key: string) {
  const delegation = useDelegationStore.getState().delegations[key];
  if (!delegation || !isFinished(delegation.status) || delegation.result === null || delegation.delivered) return;
  if (delegation.drivenElsewhere) return void leaveToTheStartingTab(key);
  const parent = peekChatSession(delegation.parentChatId);
  if (!parent || !isPendingIn(parent, delegation.toolCallId)) return;

  // Already capped when it finished: the output carries the flag, not a second cut.
  const output = {
    ...toNewTaskOutput({ outcome: delegation.status, result: delegation.result, subChatId: delegation.subChatId, usage: delegation.usage ?? undefined }),
    truncated: delegation.truncated,
  };
  useDelegationStore.getState().update(key, { delivered: true });
  void parent.addToolOutput({ tool: NEW_TASK_TOOL, toolCallId: delegation.toolCallId, output });
}

const waitingForHandOver = new Set<string>();

/** The call has its output in the stored parent: the continuation was sent. */
function answeredIn(parent: ChatWithMessages, toolCallId: string): boolean {
  return parent.messages.some((m) => m.parts.some((p) => isToolCallPart(p) && p.toolCallId === toolCallId && hasOutputOrError(p)));
}

/**
 * The tab that started the sub-chat sees it end at the same moment as this one and sends
 * the parent's continuation; this tab follows that continuation (resumes it) rather than
 * sending the same one again. Should nothing come within HAND_OVER_MS — that tab was
 * closed — this tab delivers the result itself.
 */
async function leaveToTheStartingTab(key: string) {
  if (waitingForHandOver.has(key)) return;
  waitingForHandOver.add(key);
  try {
    const { workspaceId, parentChatId, toolCallId } = useDelegationStore.getState().delegations[key]!;
    for (const deadline = Date.now() + HAND_OVER_MS; Date.now() < deadline; ) {
      const parent = await readChat(workspaceId, parentChatId).catch(() => undefined);
      if (parent && answeredIn(parent, toolCallId)) {
        useDelegationStore.getState().update(key, { delivered: true });
        void followChat(parentChatId, parent).catch(() => {});
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, HAND_OVER_CHECK_MS));
    }
    useDelegationStore.getState().update(key, { drivenElsewhere: false });
    deliverDelegation(key);
  } finally {
    waitingForHandOver.delete(key);
  }
}

/**
 * The Cancel button: stops the sub-chat here and on the server and tells the parent
 * "Cancelled by user" (outcome `cancelled`, so the parent can carry on without it).
 */
export async function cancelDelegation(key: string) {
  const { delegations, update } = useDelegationStore.getState();
  const delegation = delegations[key];
  if (!delegation || isFinished(delegation.status)) return;
  // Marked first, so the run's own ending (the aborted stream) cannot record another outcome.
  update(key, { status: 'cancelled', result: CANCELLED_RESULT, finishedAt: Date.now() });
  releaseSlot(key);
  if (delegation.subChatId) {
    stopFollowing(delegation.subChatId);
    const session = peekChatSession(delegation.subChatId);
    await session?.stop().catch(() => {});
    if (session) update(key, { steps: countSteps(session.messages) });
    // The server would also stop it when the error output arrives; stopping first means the
    // sub-chat's stored status is settled before the parent continues.
    await api.chats.stop(delegation.workspaceId, delegation.subChatId).catch(() => {});
    // Cancelled before the server stored the sub-chat: the output must not name a chat
    // that does not exist (the server checks it).
    const stored = await readChat(delegation.workspaceId, delegation.subChatId, { fresh: true }).catch(() => null);
    if (stored === undefined) update(key, { subChatId: null });
    // It handed its result back before the stop reached it: the server keeps that outcome for
    // the parent (a call whose sub-chat ended gets the server's output), so the block shows it too.
    else if (stored && stored.status !== 'running' && outcomeOfSubChat(stored) !== 'cancelled') recordOutcome(key, storedOutcome(stored));
    // Its duration is the stored sub-chat's (created → ended), as a later visit reads it.
    else if (stored && stored.status !== 'running') update(key, storedTimes(stored));
  }
  deliverDelegation(key);
}

/**
 * The composer's Stop while sub-agents work: every unfinished delegation of the parent ends
 * `cancelled` here and stops streaming, without handing anything to the parent — the server's
 * Stop cancels the sub-chats and gives the calls their outputs without continuing the answer
 * (a delivered output would make the parent answer again). All are marked before any slot is
 * released, so no queued one starts in between.
 */
export async function cancelDelegationsQuietly(parentChatId: string): Promise<void> {
  const { delegations, update } = useDelegationStore.getState();
  const open = Object.values(delegations).filter((d) => d.parentChatId === parentChatId && !isFinished(d.status));
  for (const d of open) update(d.key, { status: 'cancelled', result: CANCELLED_RESULT, finishedAt: Date.now(), delivered: true });
  for (const d of open) releaseSlot(d.key);
  await Promise.all(
    open.map(async (d) => {
      if (!d.subChatId) return;
      stopFollowing(d.subChatId);
      await peekChatSession(d.subChatId)
        ?.stop()
        .catch(() => {});
    }),
  );
}

/**
 * A finished sub-chat's start and end as stored: the one source of a delegation's
 * duration, live (once it ends) and after a reload (delegation-block.tsx) alike.
 */
export function storedTimes(chat: Pick<Chat, 'createdAt' | 'updatedAt'>): { startedAt: number; finishedAt: number } {
  return { startedAt: Date.parse(chat.createdAt), finishedAt: Date.parse(chat.updatedAt) };
}
