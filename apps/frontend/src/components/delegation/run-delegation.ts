'use client';

import type { Chat as ChatSession } from '@ai-sdk/react';
import {
  BATCH_LIMIT_RESULT,
  GENERAL_PURPOSE_LISTING,
  countSteps,
  isBeyondBatchLimit,
  isGeneralPurpose,
  notASubAgentResult,
  offerableSubAgentIds,
  offersGeneralPurpose,
  type NewTaskCall,
} from '@baton/delegation';
import { MAX_CONCURRENT_SUB_AGENTS, type Agent, type BatonUIMessage, type Chat } from '@baton/schemas';
import { APICallError, type FileUIPart } from 'ai';
import { followChat, getChatSession, peekChatSession } from '@/lib/chat-sessions';
import { whenFollowingRun } from '@/lib/follow-server-run';
import { isLive, nextRunOr, streamOver } from '@/lib/session-waits';
import { subChatIdFor } from '@/lib/sub-chat-id';
import { forgetStartedHere, rememberStartedHere, startedHere } from '@/lib/sub-chats-started-here';
import { knownAgentName, listSubChats, readChat, workspaceAgents } from '@/lib/queries';
import { delegationKey, isFinished, useDelegationStore, type Delegation } from '@/stores/delegation-store';
import { finishDelegation, storedOutcome } from './delegation-outcome';
import { acquireSlot, releaseSlot } from './delegation-slots';
import { readableChatError } from '../chat/chat-error';
import { attachmentParts, taskAttachments } from './task-attachments';

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
  /** The agent that made the call (the assistant message's metadata), to check its sub-agents. */
  parentAgentId?: string;
  call: NewTaskCall;
}

/** How often to look again while a sub-chat has not appeared yet, or runs without a readable answer. */
const RETRY_MS = 1_000;
/** Without a stream of this tab just over, a read at most this old serves the follow. */
const RUN_END_READ_MS = 1_000;
/** How long a sub-chat may take to appear on the server before its start counts as failed. */
const APPEAR_TIMEOUT_MS = 10_000;

export function ensureDelegation(request: DelegationRequest): void {
  const { workspaceId, parentChatId, call } = request;
  const added = useDelegationStore.getState().register({
    toolCallId: call.toolCallId,
    workspaceId,
    parentChatId,
    batchId: call.batchId,
    subAgentId: call.input.subAgentId ?? '',
    // The name when the agent list is already here; else the id until checkSubAgent finds it (blocks never show that id).
    subAgentName: startingName(workspaceId, call.input.subAgentId ?? ''),
    task: call.input.task ?? '',
  });
  if (!added) return;
  const key = delegationKey(parentChatId, call.toolCallId);
  runDelegation(key, request).catch((err: Error) => {
    const subChatId = useDelegationStore.getState().delegations[key]?.subChatId ?? null;
    finishDelegation(key, { outcome: 'error', result: `The delegation failed in the browser: ${err.message}`, subChatId });
  });
}

async function runDelegation(key: string, { workspaceId, parentChatId, parentAgentId, call }: DelegationRequest) {
  const store = useDelegationStore.getState();
  if (isBeyondBatchLimit(call)) return finishDelegation(key, { outcome: 'error', result: BATCH_LIMIT_RESULT, subChatId: null });

  const subAgentId = call.input.subAgentId ?? '';
  const check = await checkSubAgent(workspaceId, parentAgentId, subAgentId);
  if (check.name) store.update(key, { subAgentName: check.name });
  if (check.root) store.update(key, { maxResultChars: check.root.delegation.maxResultChars });
  if (check.rejection) return finishDelegation(key, { outcome: 'error', result: check.rejection, subChatId: null });

  const existing = await findExistingSubChat(workspaceId, parentChatId, call.toolCallId);
  if (existing && existing.status !== 'running') return finishDelegation(key, storedOutcome(existing));

  const subChatId = existing?.id ?? subChatIdFor(parentChatId, call.toolCallId);
  // The general-purpose sub-agent is the delegating agent itself: the start names that agent.
  const agentId = isGeneralPurpose(subAgentId) ? (check.root?.id ?? parentAgentId ?? subAgentId) : subAgentId;
  // The session exists before the store names the sub-chat, so the modal always finds it.
  const session = getChatSession({
    workspaceId,
    chatId: subChatId,
    body: { agentId, parentChatId, parentToolCallId: call.toolCallId },
  });

  if (!existing) {
    // A sub-chat already running (after a reload) holds no slot here: it started within the limit.
    const limit = check.root?.delegation.maxConcurrent ?? MAX_CONCURRENT_SUB_AGENTS;
    await acquireSlot(key, `${parentChatId}:${call.batchId}`, limit, () => {
      store.update(key, { status: 'queued' });
      showInModal(parentChatId, call.batchId);
    });
    // Cancelled while it waited: the slot goes straight to the next in line.
    if (isFinished(useDelegationStore.getState().delegations[key]?.status ?? 'error')) return releaseSlot(key);
  }

  store.update(key, {
    subChatId,
    status: 'running',
    // Running already, and not started by this tab (before a reload): another tab drives it.
    drivenElsewhere: Boolean(existing && !startedHere(existing.id)),
    startedAt: existing ? Date.parse(existing.createdAt) : Date.now(),
  });
  showInModal(parentChatId, call.batchId);

  // After a reload (or in a second tab) the sub-chat may already run: follow it rather than start it.
  let taskStreamEndedAt: number | undefined;
  if (!existing && useDelegationStore.getState().claimTaskSend(key)) {
    rememberStartedHere(subChatId);
    const files = attachmentParts(taskAttachments(workspaceId, call.input.attachments, peekChatSession(parentChatId)?.messages ?? []));
    await sendTask(key, session, { text: call.input.task ?? '', files }, workspaceId, subChatId);
    taskStreamEndedAt = Date.now();
  }
  await awaitOutcome(key, subChatId, session, taskStreamEndedAt);
}

/** How long to wait before asking again when the server says the batch is at its limit. */
const LIMIT_RETRY_MS = 1_500;

/**
 * Sends the task, with the files the call gives the sub-agent (the server checks them and
 * stores the call's own task and attachments). A 409 for a sub-chat that does not exist means the server counts the
 * batch at its `maxConcurrent` (sub-chats another tab, or this one before a reload,
 * started): the delegation waits as queued and asks again. A 409 for a sub-chat that
 * exists is another tab's start, which awaitOutcome follows.
 */
async function sendTask(
  key: string,
  session: ChatSession<BatonUIMessage>,
  task: { text: string; files: FileUIPart[] },
  workspaceId: string,
  subChatId: string,
) {
  const { update } = useDelegationStore.getState();
  for (;;) {
    await session.sendMessage(task.files.length > 0 ? task : { text: task.text }).catch(() => {});
    const refusal = session.status === 'error' ? session.error : undefined;
    if (!(APICallError.isInstance(refusal) && refusal.statusCode === 409)) return;
    if ((await readChat(workspaceId, subChatId, { fresh: true }).catch(() => undefined)) !== undefined) return;
    session.clearError();
    // Nothing was stored: the next attempt starts the sub-chat afresh.
    session.messages = [];
    update(key, { status: 'queued' });
    await sleep(LIMIT_RETRY_MS);
    if (isFinished(useDelegationStore.getState().delegations[key]?.status ?? 'error')) return;
    update(key, { status: 'running', startedAt: Date.now() });
  }
}

/** Opens the modal on this batch, unless the user already minimised this very batch. */
function showInModal(parentChatId: string, batchId: string) {
  const { modals, openModal } = useDelegationStore.getState();
  const modal = modals[parentChatId];
  if (modal && modal.batchId === batchId && !modal.open) return;
  openModal(parentChatId, batchId);
}

/**
 * The browser runs the top-level chat's calls only (depth 0 → 1), so the calling agent is
 * the root whose settings govern the tree. The same rules as the server decide what it may
 * delegate to; the server checks the start again.
 */
async function checkSubAgent(
  workspaceId: string,
  parentAgentId: string | undefined,
  subAgentId: string,
): Promise<{ name?: string; root?: Agent; rejection?: string }> {
  try {
    let agents = await workspaceAgents(workspaceId);
    if (!agents.has(subAgentId) || (parentAgentId && !agents.has(parentAgentId))) {
      agents = await workspaceAgents(workspaceId, { refresh: true });
    }
    const root = parentAgentId ? agents.get(parentAgentId) : undefined;
    // Without the parent agent there is nothing to check against: the server validates the start.
    if (!root) return { name: agents.get(subAgentId)?.name };
    const position = { chain: [root.id], depth: 0 };
    const offered = offerableSubAgentIds(root.subAgentIds, position, root.delegation);
    if (isGeneralPurpose(subAgentId) && offersGeneralPurpose(position, root.delegation)) return { name: generalPurposeName(root), root };
    const name = agents.get(subAgentId)?.name;
    if (offered.includes(subAgentId) && agents.has(subAgentId)) return { name, root };
    const available = offered.flatMap((id) => {
      const agent = agents.get(id);
      return agent ? [{ id: agent.id, name: agent.name }] : [];
    });
    return { name, root, rejection: notASubAgentResult(subAgentId, root.name, available) };
  } catch {
    return {};
  }
}

function startingName(workspaceId: string, subAgentId: string): string {
  return (isGeneralPurpose(subAgentId) ? GENERAL_PURPOSE_LISTING.name : knownAgentName(workspaceId, subAgentId)) ?? subAgentId;
}

/** The general-purpose sub-agent (the delegating agent itself, in a fresh context) goes by its listing's name everywhere. */
export function generalPurposeName(_agent: Pick<Agent, 'name'>): string {
  return GENERAL_PURPOSE_LISTING.name;
}

async function findExistingSubChat(workspaceId: string, parentChatId: string, toolCallId: string): Promise<Chat | undefined> {
  try {
    // One listing (in the query cache) serves a whole batch of calls registering at once.
    const chats = await listSubChats(workspaceId, parentChatId);
    // A retried call has several attempts: the newest is the one that runs.
    return chats.filter((c) => c.parentToolCallId === toolCallId).sort((a, b) => b.attempt - a.attempt)[0];
  } catch {
    // The listing failed: the derived id still finds a sub-chat this browser started.
    return readChat(workspaceId, subChatIdFor(parentChatId, toolCallId)).catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server is the source of truth for how a sub-chat ended (taskResult, provider error,
 * step limit, stop). Once this tab's own stream of the sub-chat is over, the session
 * follows whatever still runs there — a sub-chat started before a reload or by another tab
 * streams on in the modal (resumed, not polled) — and the stored outcome is delivered.
 */
async function awaitOutcome(key: string, subChatId: string, session: ChatSession<BatonUIMessage>, taskStreamEndedAt: number | undefined) {
  // A paused sub-agent goes on once its own delegation is decided and done: the answer it
  // then writes is followed here, and the delegation is running again, not awaiting approval.
  const stopWatching = whenFollowingRun(subChatId, () => {
    if (useDelegationStore.getState().delegations[key]?.status === 'awaiting_approval') useDelegationStore.getState().update(key, { status: 'running' });
  });
  try {
    await followUntilEnded(key, subChatId, session, taskStreamEndedAt);
  } finally {
    stopWatching();
  }
}

/** `taskStreamEndedAt`: when this tab's stream of the sub-chat (the task's) was over, if it had one. */
async function followUntilEnded(key: string, subChatId: string, session: ChatSession<BatonUIMessage>, taskStreamEndedAt: number | undefined) {
  const since = Date.now();
  let streamEndedAt = taskStreamEndedAt;
  for (;;) {
    const delegation: Delegation | undefined = useDelegationStore.getState().delegations[key];
    if (!delegation || isFinished(delegation.status)) return;
    if (isLive(session)) {
      await streamOver(session);
      streamEndedAt = Date.now();
      continue;
    }
    // A start the server refused because another tab (or this one before a reload) started
    // the sub-chat first is no failure when that sub-chat exists: it is followed instead.
    const refusal = session.status === 'error' ? session.error : undefined;
    if (refusal) session.clearError();
    // Reads the sub-chat and resumes whatever runs there. After this tab's own stream, that is the
    // read its run's end started (run-ended.ts), joined or taken once done, and never a copy from
    // before the end (the panel's, mid-run, would show the run still going and cost a resume and
    // another read); however late a busy page gets here, that read is still the one.
    const recentMs = streamEndedAt === undefined ? RUN_END_READ_MS : Date.now() - streamEndedAt;
    streamEndedAt = undefined;
    const chat = await followChat(subChatId, undefined, { recentMs }).catch(() => 'unreachable' as const);
    if (chat === undefined) {
      // Never created: the server refused the start (the reason is the session's error).
      if (refusal || Date.now() - since > APPEAR_TIMEOUT_MS) {
        const reason = refusal ? readableChatError(refusal) : 'the sub-chat did not start';
        return finishDelegation(key, { outcome: 'error', result: `The sub-agent could not start: ${reason}`, subChatId: null });
      }
    } else if (chat !== 'unreachable') {
      if (refusal) {
        // Another tab started it first: that tab hands the result to the parent.
        forgetStartedHere(subChatId);
        useDelegationStore.getState().update(key, { drivenElsewhere: true });
      }
      if (chat.status !== 'running') return finishDelegation(key, storedOutcome(chat));
      // Paused: the sub-agent's own delegation waits for a person (decided in its block in the modal).
      const paused = !chat.activeRun && chat.pendingApprovals.length > 0;
      useDelegationStore.getState().update(key, { steps: countSteps(session.messages), status: paused ? 'awaiting_approval' : 'running' });
      // Paused, or between two runs: a decision here resumes it at once; one made elsewhere is read shortly.
      await nextRunOr(subChatId, RETRY_MS);
      continue;
    }
    // Not there yet, or unreachable: look again shortly.
    await sleep(RETRY_MS);
  }
}
