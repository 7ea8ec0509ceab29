'use client';

import { Chat } from '@ai-sdk/react';
import type { BatonUIMessage, ChatWithMessages } from '@baton/schemas';
import { createIdGenerator } from 'ai';
import { useRunRetry } from '@/stores/run-retry-store';
import { BatonChatTransport } from './baton-transport';
import { sendContinuationHere } from './continue-or-follow';
import { followServerRun, type FollowOptions, type FollowTarget } from './follow-server-run';
import { chatRunEnded } from './run-ended';

export interface ChatSessionOptions {
  workspaceId: string;
  chatId: string;
  /**
   * Sent with the requests of this chat: `agentId` for a new chat (until its first answer ends); `agentId`,
   * `parentChatId` and `parentToolCallId` for a sub-chat.
   */
  body?: Record<string, unknown>;
  /** The stored history, when the chat already exists on the server. */
  messages?: BatonUIMessage[];
}

interface Session extends FollowTarget {
  subChat: boolean;
  /** What every request of the chat carries (the transport sends this object: changing it changes the next request). */
  body: Record<string, unknown>;
  /** The answer's stream dropped and its run ended before it could be read again: show the stored answer once the stream is over. */
  showStoredWhenDone?: boolean;
}

/**
 * Live chats by id, kept outside React: a conversation keeps streaming while its page is
 * left (a new chat's URL changes after the first message) and while the sub-agent modal
 * is minimised. One Chat per id, so a chat is never sent twice (React StrictMode).
 */
const sessions = new Map<string, Session>();

export function getChatSession(opts: ChatSessionOptions): Chat<BatonUIMessage> {
  const existing = sessions.get(opts.chatId);
  if (existing) return existing.chat;
  const body = { ...opts.body };
  const transport = new BatonChatTransport(opts.workspaceId, body);
  const session: Session = {
    body,
    workspaceId: opts.workspaceId,
    chatId: opts.chatId,
    transport,
    subChat: Boolean(opts.body?.parentChatId),
    chat: new Chat<BatonUIMessage>({
      id: opts.chatId,
      messages: opts.messages ?? [],
      transport,
      // The parent continues by itself once every pending newTask call has an output.
      sendAutomaticallyWhen: ({ messages }) => sendContinuationHere(session, messages),
      // "Rate limited by the provider, retrying in 12 s…" while the provider is waited for; over once the answer ends.
      onData: (part) => {
        if (part.type !== 'data-run-retry') return;
        if (part.data.recovered) useRunRetry.getState().clear(opts.chatId);
        else useRunRetry.getState().set(opts.chatId, part.data);
      },
      onFinish: ({ isAbort, isError }) => {
        useRunRetry.getState().clear(opts.chatId);
        // The chat exists now: naming its agent in later requests would switch it back if
        // someone switched it since (the header's menu, another tab). Sub-chats keep theirs.
        if (!isAbort && !isError && !session.subChat) delete session.body.agentId;
        // The run ended: its stored state (final title, usage, a stored failure) is read once into
        // the query cache, for every piece that shows the chat. A stopped answer is read by Stop,
        // after the server has stored what was kept.
        if (!isAbort) void chatRunEnded(opts.workspaceId, opts.chatId);
        // How the answer ended (its text, a stored failure with its reason) is on the server.
        if (session.showStoredWhenDone) {
          session.showStoredWhenDone = false;
          void followServerRun(session).catch(() => {});
        }
      },
      onError: () => useRunRetry.getState().clear(opts.chatId),
    }),
  };
  transport.onEndedUnseen = () => {
    session.showStoredWhenDone = true;
  };
  sessions.set(opts.chatId, session);
  return session.chat;
}

/**
 * Brings a chat's session up to date with the server and follows its running answer, if
 * any (see follow-server-run.ts). Resolves with the stored chat once nothing runs;
 * undefined when the chat does not exist or has no session in this tab.
 */
export function followChat(chatId: string, snapshot?: ChatWithMessages, opts?: FollowOptions): Promise<ChatWithMessages | undefined> {
  const session = sessions.get(chatId);
  return session ? followServerRun(session, snapshot, opts) : Promise.resolve(undefined);
}

/**
 * An id for a chat the browser is about to start: the client names a new chat, so its
 * session exists (and streams) before the server has stored anything.
 */
export const newChatId = createIdGenerator({ prefix: 'chat', separator: '_', size: 16 });

/**
 * The chat's agent was switched (PATCH): a chat started in this tab names its agent in every
 * request, which would switch it back, so its requests name the new one from now on.
 */
export function setSessionAgent(chatId: string, agentId: string | null): void {
  const session = sessions.get(chatId);
  if (!session || session.subChat || !('agentId' in session.body)) return;
  if (agentId) session.body.agentId = agentId;
  else delete session.body.agentId;
}

export function peekChatSession(chatId: string): Chat<BatonUIMessage> | undefined {
  return sessions.get(chatId)?.chat;
}

/** Whether this tab runs the chat as a sub-agent's chat (opened from a delegation). */
export function isSubChatSession(chatId: string): boolean {
  return sessions.get(chatId)?.subChat ?? false;
}
