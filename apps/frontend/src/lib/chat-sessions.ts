'use client';

import { Chat } from '@ai-sdk/react';
import { createIdGenerator, DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';

export interface ChatSessionOptions {
  workspaceId: string;
  chatId: string;
  /**
   * Sent with every request of this chat: `agentId` for a new chat; `agentId`,
   * `parentChatId` and `parentToolCallId` for a sub-chat.
   */
  body?: Record<string, unknown>;
  /** The stored history, when the chat already exists on the server. */
  messages?: UIMessage[];
}

/**
 * Live chats by id, kept outside React: a conversation keeps streaming while its page is
 * left (a new chat's URL changes after the first message) and while the sub-agent modal
 * is minimised. One Chat per id, so a chat is never sent twice (React StrictMode).
 */
const sessions = new Map<string, Chat<UIMessage>>();
const subChatIds = new Set<string>();

/** Baton's wire format: the server keeps the history, so only the newest message is sent. */
export function batonTransport(workspaceId: string, body: Record<string, unknown> = {}) {
  return new DefaultChatTransport<UIMessage>({
    api: `/api/workspaces/${encodeURIComponent(workspaceId)}/chat`,
    prepareSendMessagesRequest: ({ id, messages, trigger, body: requestBody }) => ({
      body: { ...body, ...requestBody, id, message: messages.at(-1), trigger },
    }),
  });
}

export function getChatSession(opts: ChatSessionOptions): Chat<UIMessage> {
  const existing = sessions.get(opts.chatId);
  if (existing) return existing;
  const chat = new Chat<UIMessage>({
    id: opts.chatId,
    messages: opts.messages ?? [],
    transport: batonTransport(opts.workspaceId, opts.body),
    // The parent continues by itself once every pending newTask call has an output.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
  });
  sessions.set(opts.chatId, chat);
  if (opts.body?.parentChatId) subChatIds.add(opts.chatId);
  return chat;
}

/**
 * An id for a chat the browser is about to start: the client names a new chat, so its
 * session exists (and streams) before the server has stored anything.
 */
export const newChatId = createIdGenerator({ prefix: 'chat', separator: '_', size: 16 });

export function peekChatSession(chatId: string): Chat<UIMessage> | undefined {
  return sessions.get(chatId);
}

/** Whether this tab runs the chat as a sub-agent's chat (opened from a delegation). */
export function isSubChatSession(chatId: string): boolean {
  return subChatIds.has(chatId);
}

export function forgetChatSession(chatId: string): void {
  sessions.delete(chatId);
  subChatIds.delete(chatId);
}
