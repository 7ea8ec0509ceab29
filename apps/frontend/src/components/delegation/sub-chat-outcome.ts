import type { Chat, DelegationOutcome } from '@baton/schemas';

/** How a sub-chat ended, as the server decided it; rows from before `outcome` existed read their status. */
export function outcomeOfSubChat(chat: Pick<Chat, 'outcome' | 'status'>): DelegationOutcome {
  if (chat.outcome) return chat.outcome;
  return chat.status === 'success' || chat.status === 'cancelled' ? chat.status : 'error';
}
