'use client';

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
  return started;
}
