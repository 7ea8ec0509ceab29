import type { Chat, ChatTrace, ChatWithMessages } from '@baton/schemas';
import { ApiError, api, chatPath, request } from './api-client';

/*
 * The few sub-chat endpoints the delegation flow needs. Kept apart from the shared
 * api-client so the delegation work does not grow a file other features edit.
 */

/** The chats a parent chat delegated to, oldest first (each names its `parentToolCallId`). */
export async function listSubChats(workspaceId: string, parentChatId: string): Promise<Chat[]> {
  const body = await request<{ data: Chat[] }>('GET', `${chatPath(workspaceId, parentChatId)}/sub-chats`);
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

/** The chat's delegation tree: the chat and every sub-chat below it, with status, steps, tokens and times. */
export async function getChatTrace(workspaceId: string, chatId: string): Promise<ChatTrace> {
  return request<ChatTrace>('GET', `${chatPath(workspaceId, chatId)}/trace`);
}
