'use client';

import type { Chat, SharedChat, SharedSubChat } from '@baton/schemas';
import { createContext, useContext } from 'react';

/**
 * A chat opened through a share link: everything its transcript shows is in the one answer
 * of `GET /api/shared/:token`. The conversation components read their sub-chats and agent
 * names from here instead of the API (which a visitor without an account cannot call), and
 * leave out whatever acts on the chat (View, Tree, Retry, approvals).
 */
export interface SharedChatSource {
  /** Sub-chats by their parent's id (the share's own ids), every attempt, in the order they started. */
  subChatsOf: ReadonlyMap<string, readonly Chat[]>;
  /** A sub-chat's messages, by its id. */
  subChat: ReadonlyMap<string, SharedSubChat>;
  /** Agents the delegations name, by the share's ids. */
  agentNames: ReadonlyMap<string, string>;
}

export const SharedChatContext = createContext<SharedChatSource | null>(null);

/** The share being shown, or null in the signed-in app. */
export function useSharedChat(): SharedChatSource | null {
  return useContext(SharedChatContext);
}

/** The lookups of a shared chat, built once from its answer. */
export function sharedChatSource(shared: SharedChat['chat']): SharedChatSource {
  const subChatsOf = new Map<string, Chat[]>();
  const subChat = new Map<string, SharedSubChat>();
  const visit = (parentId: string, children: readonly SharedSubChat[]) => {
    subChatsOf.set(
      parentId,
      children.map((c) => asChat(c, parentId)),
    );
    for (const c of children) {
      subChat.set(c.id, c);
      visit(c.id, c.subChats);
    }
  };
  visit(shared.id, shared.subChats);
  return { subChatsOf, subChat, agentNames: new Map(shared.agents.map((a) => [a.id, a.name])) };
}

/** A shared sub-chat in the shape the delegation block reads (`Chat`): what the share does not say is empty. */
function asChat(c: SharedSubChat, parentChatId: string): Chat {
  return {
    id: c.id,
    workspaceId: '',
    agentId: null,
    title: c.title,
    parentChatId,
    parentToolCallId: c.parentToolCallId,
    attempt: c.attempt,
    delegateTask: c.task,
    delegateResult: c.result,
    status: c.status,
    outcome: c.outcome,
    depth: c.depth,
    contextMode: null,
    delegateContext: null,
    effectiveToolIds: null,
    notes: c.notes,
    inputTokens: c.usage.inputTokens,
    outputTokens: c.usage.outputTokens,
    source: 'app',
    apiKeyName: null,
    pinned: false,
    archived: false,
    modelOverride: null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
