'use client';

import type { Chat as ChatSession } from '@ai-sdk/react';
import type { Chat, Message } from '@baton/schemas';
import type { UIMessage } from 'ai';
import { workspaceAgents } from '@/lib/agent-directory';
import { followChat, getChatSession } from '@/lib/chat-sessions';
import { BATCH_LIMIT_RESULT, isBeyondBatchLimit, type NewTaskCall } from '@/lib/new-task-calls';
import { subChatIdFor } from '@/lib/sub-chat-id';
import { toUIMessages } from '@/lib/stored-messages';
import { forgetStartedHere, rememberStartedHere, startedHere } from '@/lib/sub-chats-started-here';
import { findSubChat, listSubChats } from '@/lib/sub-chats-api';
import { delegationKey, isFinished, useDelegationStore, type Delegation } from '@/stores/delegation-store';
import { countSteps, finishDelegation, rememberParentSession, type Outcome } from './delegation-outcome';
import { readableChatError } from '../chat/chat-error';

/*
 * One delegation from registration to outcome, outside React: sub-chats keep running
 * while the modal is closed or the page changes, and StrictMode's double effects cannot
 * start anything twice (the store's `register` admits each call once).
 *
 *   register → check the sub-agent → find an existing sub-chat (reload) →
 *     finished: deliver its stored result | running: follow it | none: start it →
 *   read the outcome from the server → deliver (delegation-outcome.ts)
 */

export interface DelegationRequest {
  workspaceId: string;
  parentChatId: string;
  parent: ChatSession<UIMessage>;
  /** The agent that made the call (the assistant message's metadata), to check its sub-agents. */
  parentAgentId?: string;
  call: NewTaskCall;
}

/** How often to look again while a sub-chat has not appeared yet, or runs without a readable answer. */
const RETRY_MS = 1_000;
/** How long a sub-chat may take to appear on the server before its start counts as failed. */
const APPEAR_TIMEOUT_MS = 10_000;

export function ensureDelegation(request: DelegationRequest): void {
  const { workspaceId, parentChatId, parent, call } = request;
  rememberParentSession(parentChatId, parent);
  const added = useDelegationStore.getState().register({
    toolCallId: call.toolCallId,
    workspaceId,
    parentChatId,
    batchId: call.batchId,
    subAgentId: call.subAgentId,
    subAgentName: call.subAgentId,
    task: call.task,
  });
  if (!added) return;
  const key = delegationKey(parentChatId, call.toolCallId);
  runDelegation(key, request).catch((err: Error) => {
    const subChatId = useDelegationStore.getState().delegations[key]?.subChatId ?? null;
    finishDelegation(key, { status: 'error', result: `The delegation failed in the browser: ${err.message}`, subChatId });
  });
}

async function runDelegation(key: string, { workspaceId, parentChatId, parentAgentId, call }: DelegationRequest) {
  const store = useDelegationStore.getState();
  if (isBeyondBatchLimit(call)) return finishDelegation(key, { status: 'error', result: BATCH_LIMIT_RESULT, subChatId: null });

  const check = await checkSubAgent(workspaceId, parentAgentId, call.subAgentId);
  if (check.name) store.update(key, { subAgentName: check.name });
  if (check.rejection) return finishDelegation(key, { status: 'error', result: check.rejection, subChatId: null });

  const existing = await findExistingSubChat(workspaceId, parentChatId, call.toolCallId);
  if (existing && existing.status !== 'running') return finishDelegation(key, storedOutcome(existing));

  const subChatId = existing?.id ?? subChatIdFor(parentChatId, call.toolCallId);
  // The session exists before the store names the sub-chat, so the modal always finds it.
  const session = getChatSession({
    workspaceId,
    chatId: subChatId,
    body: { agentId: call.subAgentId, parentChatId, parentToolCallId: call.toolCallId },
  });
  store.update(key, {
    subChatId,
    status: 'running',
    // Running already, and not started by this tab (before a reload): another tab drives it.
    drivenElsewhere: Boolean(existing && !startedHere(existing.id)),
    ...(existing ? { startedAt: Date.parse(existing.createdAt) } : {}),
  });
  showInModal(parentChatId, call.batchId);

  // After a reload (or in a second tab) the sub-chat may already run: follow it rather than start it.
  if (!existing && useDelegationStore.getState().claimTaskSend(key)) {
    rememberStartedHere(subChatId);
    await session.sendMessage({ text: call.task }).catch(() => {});
  }
  await awaitOutcome(key, subChatId, session);
}

/** Opens the modal on this batch, unless the user already minimised this very batch. */
function showInModal(parentChatId: string, batchId: string) {
  const { modals, openModal } = useDelegationStore.getState();
  const modal = modals[parentChatId];
  if (modal && modal.batchId === batchId && !modal.open) return;
  openModal(parentChatId, batchId);
}

async function checkSubAgent(workspaceId: string, parentAgentId: string | undefined, subAgentId: string) {
  try {
    let agents = await workspaceAgents(workspaceId);
    if (!agents.has(subAgentId) || (parentAgentId && !agents.has(parentAgentId))) {
      agents = await workspaceAgents(workspaceId, { refresh: true });
    }
    const name = agents.get(subAgentId)?.name;
    const parentAgent = parentAgentId ? agents.get(parentAgentId) : undefined;
    // Without the parent agent there is nothing to check against: the server validates the start.
    if (!parentAgent || parentAgent.subAgentIds.includes(subAgentId)) return { name };
    const available = parentAgent.subAgentIds.flatMap((id) => {
      const agent = agents.get(id);
      return agent ? [`${agent.name} (id: ${agent.id})`] : [];
    });
    return {
      name,
      rejection:
        `Not run: "${subAgentId}" is not a sub-agent of ${parentAgent.name}. ` +
        (available.length ? `Available sub-agents: ${available.join(', ')}.` : `${parentAgent.name} has no sub-agents.`),
    };
  } catch {
    return {};
  }
}

/** One listing per parent for a whole batch of calls registering at once. */
const listings = new Map<string, { at: number; chats: Promise<Chat[]> }>();

async function findExistingSubChat(workspaceId: string, parentChatId: string, toolCallId: string): Promise<Chat | undefined> {
  let listing = listings.get(parentChatId);
  if (!listing || Date.now() - listing.at > 2_000) {
    listing = { at: Date.now(), chats: listSubChats(workspaceId, parentChatId) };
    listings.set(parentChatId, listing);
  }
  try {
    const chats = await listing.chats;
    useDelegationStore.getState().setSubChats(parentChatId, chats);
    return chats.find((c) => c.parentToolCallId === toolCallId);
  } catch {
    // The listing failed: the derived id still finds a sub-chat this browser started.
    return findSubChat(workspaceId, subChatIdFor(parentChatId, toolCallId)).catch(() => undefined);
  }
}

function storedOutcome(chat: Chat & { messages?: Message[] }): Outcome {
  const status = chat.status === 'success' || chat.status === 'cancelled' ? chat.status : 'error';
  return {
    status,
    result: chat.delegateResult ?? (status === 'success' ? '' : 'The sub-agent reported no result.'),
    subChatId: chat.id,
    startedAt: Date.parse(chat.createdAt),
    finishedAt: Date.parse(chat.updatedAt),
    ...(chat.messages ? { steps: countSteps(toUIMessages(chat.messages)) } : {}),
  };
}

const isLive = (session: ChatSession<UIMessage>) => session.status === 'submitted' || session.status === 'streaming';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server is the source of truth for how a sub-chat ended (taskResult, provider error,
 * step limit, stop). Once this tab's own stream of the sub-chat is over, the session
 * follows whatever still runs there — a sub-chat started before a reload or by another tab
 * streams on in the modal (resumed, not polled) — and the stored outcome is delivered.
 */
async function awaitOutcome(key: string, subChatId: string, session: ChatSession<UIMessage>) {
  const since = Date.now();
  for (;;) {
    const delegation: Delegation | undefined = useDelegationStore.getState().delegations[key];
    if (!delegation || isFinished(delegation.status)) return;
    if (isLive(session)) {
      await sleep(RETRY_MS);
      continue;
    }
    // A start the server refused because another tab (or this one before a reload) started
    // the sub-chat first is no failure when that sub-chat exists: it is followed instead.
    const refusal = session.status === 'error' ? session.error : undefined;
    if (refusal) session.clearError();
    const chat = await followChat(subChatId).catch(() => 'unreachable' as const);
    if (chat === undefined) {
      // Never created: the server refused the start (the reason is the session's error).
      if (refusal || Date.now() - since > APPEAR_TIMEOUT_MS) {
        const reason = refusal ? readableChatError(refusal) : 'the sub-chat did not start';
        return finishDelegation(key, { status: 'error', result: `The sub-agent could not start: ${reason}`, subChatId: null });
      }
    } else if (chat !== 'unreachable') {
      if (refusal) {
        // Another tab started it first: that tab hands the result to the parent.
        forgetStartedHere(subChatId);
        useDelegationStore.getState().update(key, { drivenElsewhere: true });
      }
      if (chat.status !== 'running') return finishDelegation(key, storedOutcome(chat));
      useDelegationStore.getState().update(key, { steps: countSteps(session.messages) });
    }
    // Not there yet, unreachable, or running with no answer to read right now: look again shortly.
    await sleep(RETRY_MS);
  }
}
