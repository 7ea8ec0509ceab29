'use client';

import type { BatonUIMessage } from '@baton/schemas';
import type { ChatStatus } from 'ai';
import { type ComponentType, createContext, useContext } from 'react';

export interface MessageListProps {
  messages: BatonUIMessage[];
  workspaceId: string;
  chatId: string;
  status?: ChatStatus;
}

/**
 * The conversation component, for what a message renders inside itself: a delegation
 * block's expanded sub-chat is a conversation too. Provided by MessageList around its
 * messages, so that components inside a message reach it without importing it — the
 * message → delegation block → conversation recursion would otherwise be an import cycle.
 */
export const MessageListContext = createContext<ComponentType<MessageListProps> | null>(null);

export function useMessageList(): ComponentType<MessageListProps> {
  const list = useContext(MessageListContext);
  if (!list) throw new Error('useMessageList is used outside a MessageList');
  return list;
}
