import type { SteeringMessage } from '@baton/schemas';
import { ApiError } from './api-client';
import { fetchSignedIn } from './sign-in-redirect';

/* Talking to a running sub-agent: queue a message for its next step, and read what was sent. */

const chatPath = (workspaceId: string, chatId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/chats/${encodeURIComponent(chatId)}`;

async function call<T>(path: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetchSignedIn(path, { ...init, cache: 'no-store' });
  } catch (err) {
    throw new ApiError(0, 'network_error', `the server could not be reached (${(err as Error).message})`);
  }
  const payload = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  if (!res.ok) {
    const error = payload?.error;
    throw new ApiError(res.status, error?.code ?? `http_${res.status}`, error?.message ?? `the server answered ${res.status}`);
  }
  return payload as T;
}

/** Queues `text` for the sub-agent of a running sub-chat (202); 409 when it is not running any more. */
export function sendSteeringMessage(workspaceId: string, subChatId: string, text: string): Promise<SteeringMessage> {
  return call<SteeringMessage>(`${chatPath(workspaceId, subChatId)}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
}

/** Everything sent to a sub-agent, oldest first, with whether it reached it. */
export async function listSteeringMessages(workspaceId: string, subChatId: string): Promise<SteeringMessage[]> {
  return (await call<{ data: SteeringMessage[] }>(`${chatPath(workspaceId, subChatId)}/steering`, { method: 'GET' })).data;
}
