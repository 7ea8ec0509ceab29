import type { Chat, ChatTrace, ChatWithMessages } from '@baton/schemas';
import { ApiError, api } from './api-client';
import { fetchSignedIn } from './sign-in-redirect';

/*
 * The few sub-chat endpoints the delegation flow needs. Kept apart from the shared
 * api-client so the delegation work does not grow a file other features edit.
 */

const chatPath = (workspaceId: string, chatId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/chats/${encodeURIComponent(chatId)}`;

async function send<T>(method: 'GET' | 'POST', path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetchSignedIn(path, { method, cache: 'no-store' });
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

/** The chats a parent chat delegated to, oldest first (each names its `parentToolCallId`). */
export async function listSubChats(workspaceId: string, parentChatId: string): Promise<Chat[]> {
  const body = await send<{ data: Chat[] }>('GET', `${chatPath(workspaceId, parentChatId)}/sub-chats`);
  return body.data;
}

/** One sub-chat with its messages; undefined when it does not exist (yet). */
export async function findSubChat(workspaceId: string, subChatId: string): Promise<ChatWithMessages | undefined> {
  try {
    return await api.chats.get(workspaceId, subChatId);
  } catch (err) {
    if (err instanceof ApiError && err.isNotFound) return undefined;
    throw err;
  }
}

/** Stops the chat's running turn on the server; what it produced so far is stored. */
export async function stopChatRun(workspaceId: string, chatId: string): Promise<boolean> {
  const body = await send<{ stopped: boolean }>('POST', `${chatPath(workspaceId, chatId)}/stop`);
  return body.stopped;
}

/** The chat's delegation tree: the chat and every sub-chat below it, with status, steps, tokens and times. */
export async function getChatTrace(workspaceId: string, chatId: string): Promise<ChatTrace> {
  return send<ChatTrace>('GET', `${chatPath(workspaceId, chatId)}/trace`);
}
