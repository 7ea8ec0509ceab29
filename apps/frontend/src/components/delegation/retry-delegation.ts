'use client';

import { hasOutputOrError, isToolCallPart } from '@baton/delegation';
import type { DelegationRetry, DelegationRetryRequest } from '@baton/schemas';
import { api } from '@/lib/api-client';
import { followChat, peekChatSession } from '@/lib/chat-sessions';
import { toUIMessages } from '@/lib/stored-messages';
import { retryDelegationRequest } from '@/lib/retry-api';
import { listSubChats } from '@/lib/sub-chats-api';
import { delegationKey, useDelegationStore } from '@/stores/delegation-store';
import { forgetSubChatListing } from './run-delegation';

/**
 * Retries a delegation: the server starts the next attempt and cuts the answer back to the
 * call, which waits again. The page then shows the stored answer; the waiting call
 * registers as a new delegation, which finds the running attempt and follows it in the modal,
 * and afterwards the server's continuation — the same path as after a reload.
 */
export async function retryDelegation(workspaceId: string, parentChatId: string, toolCallId: string, body: DelegationRetryRequest): Promise<DelegationRetry> {
  const started = await retryDelegationRequest(workspaceId, parentChatId, toolCallId, body);
  const store = useDelegationStore.getState();
  store.forget(delegationKey(parentChatId, toolCallId));
  // The first attempt's modal was minimised when it ended; the person asked for this one, so it opens.
  const { [parentChatId]: _minimised, ...modals } = useDelegationStore.getState().modals;
  useDelegationStore.setState({ modals });
  forgetSubChatListing(parentChatId);
  const [stored] = await Promise.all([
    api.chats.get(workspaceId, parentChatId),
    listSubChats(workspaceId, parentChatId)
      .then((chats) => store.setSubChats(parentChatId, chats))
      .catch(() => {}),
  ]);
  // This tab still shows the call's old output, which a follow would take for one about to be
  // sent: the stored answer (the call waiting again) replaces it first.
  const session = peekChatSession(parentChatId);
  if (session) session.messages = toUIMessages(stored.messages);
  void followChat(parentChatId, stored).catch(() => {});
  void followContinuation(workspaceId, parentChatId, toolCallId, stored.messages.at(-1)?.id);
  return started;
}

const CONTINUATION_CHECK_MS = 1_000;
const CONTINUATION_WAIT_MS = 15 * 60_000;

/**
 * The server continues the answer once the attempt ends; the page follows that continuation
 * itself rather than leaving it to the attempt's delegation (which may have handed this call's
 * output over already, for the first attempt). Ends when the answer moved on without it.
 */
async function followContinuation(workspaceId: string, parentChatId: string, toolCallId: string, answerId: string | undefined) {
  for (const deadline = Date.now() + CONTINUATION_WAIT_MS; Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, CONTINUATION_CHECK_MS));
    const parent = await api.chats.get(workspaceId, parentChatId).catch(() => undefined);
    if (!parent) continue;
    const answer = parent.messages.at(-1);
    if (answer?.id !== answerId) return;
    const call = answer?.parts.find((p) => isToolCallPart(p) && p.toolCallId === toolCallId);
    if (parent.activeRun || (call && isToolCallPart(call) && hasOutputOrError(call))) {
      await followChat(parentChatId, parent).catch(() => {});
      return;
    }
  }
}
