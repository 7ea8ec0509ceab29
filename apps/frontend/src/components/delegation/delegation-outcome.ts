'use client';

import type { Chat as ChatSession } from '@ai-sdk/react';
import { NEW_TASK_TOOL, type ChatWithMessages, type NewTaskOutput } from '@baton/schemas';
import type { UIMessage } from 'ai';
import { api } from '@/lib/api-client';
import { followChat, peekChatSession } from '@/lib/chat-sessions';
import { stopFollowing } from '@/lib/follow-server-run';
import { CANCELLED_RESULT } from '@/lib/new-task-calls';
import { findSubChat, stopChatRun } from '@/lib/sub-chats-api';
import { isFinished, useDelegationStore, type DelegationStatus } from '@/stores/delegation-store';

/*
 * The end of a delegation: record how it finished and hand `{ result, status, subChatId }`
 * to the parent's pending `newTask` call. The parent's session resends by itself
 * (sendAutomaticallyWhen) once every pending call of its message has an output.
 *
 * When another tab started the sub-chat, that tab hands the result over and continues the
 * parent; this tab then follows that continuation instead of sending its own.
 */

/** How long a tab waits for the tab that started a sub-chat to continue the parent (it may have been closed). */
const HAND_OVER_MS = 3_000;
/** How often it looks meanwhile. */
const HAND_OVER_CHECK_MS = 300;

/** The parent sessions seen per parent chat: a fallback should the session cache forget one. */
const parentSessions = new Map<string, ChatSession<UIMessage>>();
/** Which calls each parent session already received, so a session never gets an output twice. */
const deliveredTo = new WeakMap<ChatSession<UIMessage>, Set<string>>();

export function rememberParentSession(parentChatId: string, session: ChatSession<UIMessage>) {
  parentSessions.set(parentChatId, session);
}

export interface Outcome {
  status: Exclude<DelegationStatus, 'starting' | 'running'>;
  result: string;
  subChatId: string | null;
  steps?: number;
  startedAt?: number;
  finishedAt?: number;
}

/** Records the outcome (the first one wins) and delivers it to the parent. */
export function finishDelegation(key: string, outcome: Outcome) {
  const { delegations, update } = useDelegationStore.getState();
  const current = delegations[key];
  if (!current || isFinished(current.status)) return;
  update(key, {
    status: outcome.status,
    result: outcome.result,
    subChatId: outcome.subChatId,
    finishedAt: outcome.finishedAt ?? Date.now(),
    ...(outcome.steps !== undefined ? { steps: outcome.steps } : {}),
    ...(outcome.startedAt !== undefined ? { startedAt: outcome.startedAt } : {}),
  });
  deliverDelegation(key);
}

function isPendingIn(session: ChatSession<UIMessage>, toolCallId: string): boolean {
  // Only the last message's calls can still receive outputs (the server accepts nothing else).
  const last = session.messages.at(-1);
  if (last?.role !== 'assistant') return false;
  return last.parts.some((p) => p.type === `tool-${NEW_TASK_TOOL}` && 'toolCallId' in p && p.toolCallId === toolCallId && p.state === 'input-available');
}

/**
 * Gives a finished delegation's output to the parent session, if that session still waits
 * for it. Safe to call again (e.g. for a session re-created from stored messages).
 */
export function deliverDelegation(key: string) {
  const delegation = useDelegationStore.getState().delegations[key];
  if (!delegation || !isFinished(delegation.status) || delegation.result === null) return;
  if (delegation.drivenElsewhere) return void leaveToTheStartingTab(key);
  const parent = peekChatSession(delegation.parentChatId) ?? parentSessions.get(delegation.parentChatId);
  if (!parent || !isPendingIn(parent, delegation.toolCallId)) return;
  const sent = deliveredTo.get(parent) ?? new Set<string>();
  if (sent.has(key)) return;
  sent.add(key);
  deliveredTo.set(parent, sent);

  const output: NewTaskOutput = {
    result: delegation.result,
    status: delegation.status === 'success' ? 'success' : 'error',
    subChatId: delegation.subChatId,
  };
  useDelegationStore.getState().update(key, { delivered: true });
  void parent.addToolOutput({ tool: NEW_TASK_TOOL, toolCallId: delegation.toolCallId, output });
}

const waitingForHandOver = new Set<string>();

/** The call has its output in the stored parent: the continuation was sent. */
function answeredIn(parent: ChatWithMessages, toolCallId: string): boolean {
  return parent.messages.some((m) => m.parts.some((p) => p.toolCallId === toolCallId && (p.state === 'output-available' || p.state === 'output-error')));
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
      const parent = await api.chats.get(workspaceId, parentChatId).catch(() => undefined);
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
 * "Cancelled by user" (an error result, so the parent can carry on without it).
 */
export async function cancelDelegation(key: string) {
  const { delegations, update } = useDelegationStore.getState();
  const delegation = delegations[key];
  if (!delegation || isFinished(delegation.status)) return;
  // Marked first, so the run's own ending (the aborted stream) cannot record another outcome.
  update(key, { status: 'cancelled', result: CANCELLED_RESULT, finishedAt: Date.now() });
  if (delegation.subChatId) {
    stopFollowing(delegation.subChatId);
    const session = peekChatSession(delegation.subChatId);
    await session?.stop().catch(() => {});
    if (session) update(key, { steps: countSteps(session.messages) });
    // The server would also stop it when the error output arrives; stopping first means the
    // sub-chat's stored status is settled before the parent continues.
    await stopChatRun(delegation.workspaceId, delegation.subChatId).catch(() => {});
    // Cancelled before the server stored the sub-chat: the output must not name a chat
    // that does not exist (the server checks it).
    const stored = await findSubChat(delegation.workspaceId, delegation.subChatId).catch(() => null);
    if (stored === undefined) update(key, { subChatId: null });
  }
  deliverDelegation(key);
}

/** Model steps the sub-agent took so far: one `step-start` part per step. */
export function countSteps(messages: readonly Pick<UIMessage, 'role' | 'parts'>[]): number {
  let steps = 0;
  for (const m of messages) if (m.role === 'assistant') for (const p of m.parts) if (p.type === 'step-start') steps++;
  return steps;
}
