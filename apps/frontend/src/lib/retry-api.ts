import type { DelegationRetry, DelegationRetryRequest } from '@baton/schemas';
import { request } from './api-client';

/** Starts the next attempt of a finished delegation of the chat's last answer (202). */
export function retryDelegationRequest(workspaceId: string, chatId: string, toolCallId: string, body: DelegationRetryRequest): Promise<DelegationRetry> {
  const path = `/workspaces/${encodeURIComponent(workspaceId)}/chats/${encodeURIComponent(chatId)}/delegations/${encodeURIComponent(toolCallId)}/retry`;
  return request<DelegationRetry>('POST', path, body);
}
