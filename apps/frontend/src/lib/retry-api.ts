import type { DelegationRetry, DelegationRetryRequest } from '@baton/schemas';
import { ApiError } from './api-client';
import { fetchSignedIn } from './sign-in-redirect';

/** Starts the next attempt of a finished delegation of the chat's last answer (202). */
export async function retryDelegationRequest(workspaceId: string, chatId: string, toolCallId: string, body: DelegationRetryRequest): Promise<DelegationRetry> {
  const path = `/api/workspaces/${encodeURIComponent(workspaceId)}/chats/${encodeURIComponent(chatId)}/delegations/${encodeURIComponent(toolCallId)}/retry`;
  let res: Response;
  try {
    res = await fetchSignedIn(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cache: 'no-store' });
  } catch (err) {
    throw new ApiError(0, 'network_error', `the server could not be reached (${(err as Error).message})`);
  }
  const payload = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  if (!res.ok) {
    throw new ApiError(res.status, payload?.error?.code ?? `http_${res.status}`, payload?.error?.message ?? `the server answered ${res.status}`);
  }
  return payload as DelegationRetry;
}
