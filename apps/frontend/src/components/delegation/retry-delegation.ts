'use client';

import type { DelegationRetry, DelegationRetryRequest } from '@baton/schemas';
import { api } from '@/lib/api-client';
import { followChat, peekChatSession } from '@/lib/chat-sessions';
import { toUIMessages } from '@/lib/stored-messages';
import { listSubChats, readChat } from '@/lib/queries';
import { delegationKey, isFinished, useDelegationStore } from '@/stores/delegation-store';

/**
 * Retries a delegation: the server starts the next attempt and cuts the answer back to the
 * call, which waits again. The page then shows the stored answer; the waiting call
 * registers as a new delegation, which finds the running attempt and follows it in the modal,
 * and afterwards the server's continuation — the same path as after a reload.
 */
export async function retryDelegation(workspaceId: string, parentChatId: string, toolCallId: string, body: DelegationRetryRequest): Promise<DelegationRetry> {
  const started = await api.chats.retryDelegation(workspaceId, parentChatId, toolCallId, body);
  const store = useDelegationStore.getState();
  store.forget(delegationKey(parentChatId, toolCallId));
  // The first attempt's modal was minimised when it ended; the person asked for this one, so it opens.
  const { [parentChatId]: _minimised, ...modals } = useDelegationStore.getState().modals;
  useDelegationStore.setState({ modals });
  // The call's blocks show the new attempt: the parent's sub-chat list is read again.
  const [stored] = await Promise.all([
    readChat(workspaceId, parentChatId, { fresh: true }),
    listSubChats(workspaceId, parentChatId, { fresh: true }).catch(() => {}),
  ]);
  if (!stored) throw new Error('the chat is gone');
  // This tab still shows the call's old output, which a follow would take for one about to be
  // sent: the stored answer (the call waiting again) replaces it first.
  const session = peekChatSession(parentChatId);
  if (session) session.messages = toUIMessages(stored.messages);
  void followChat(parentChatId, stored).catch(() => {});
  followContinuation(parentChatId, toolCallId);
  return started;
}

/** How long the page waits for the new attempt to end (a sub-agent may work for a long time). */
const CONTINUATION_WAIT_MS = 15 * 60_000;

/**
 * The server continues the answer once the attempt ends; the page follows that continuation
 * itself rather than leaving it to the attempt's delegation (which may have handed this call's
 * output over already, for the first attempt). The attempt's end is what the delegation
 * (following its stream in the modal) records in the store: the parent is read then, not
 * looked at every second meanwhile.
 */
function followContinuation(parentChatId: string, toolCallId: string) {
  const key = delegationKey(parentChatId, toolCallId);
  const done = () => {
    clearTimeout(timer);
    stopWatching();
  };
  const stopWatching = useDelegationStore.subscribe((state) => {
    const attempt = state.delegations[key];
    if (!attempt || !isFinished(attempt.status)) return;
    done();
    void followChat(parentChatId, undefined, { fresh: true }).catch(() => {});
  });
  const timer = setTimeout(done, CONTINUATION_WAIT_MS);
}
