'use client';

import { createContext, useContext } from 'react';

/**
 * What the live chat lets its transcript do. Only the transcript of that same chat gets
 * them: a sub-chat transcript rendered inside it (an expanded delegation block, the
 * sub-agent modal) stays read-only, with no Regenerate and no Retry.
 */
export interface ChatActions {
  chatId: string;
  /** Answers the last user message again (Regenerate, and Retry after an error). */
  regenerate: () => void;
  /** Rewrites a user message and has it answered again: a new branch, the old one kept as a version. */
  edit: (messageId: string, text: string) => void;
  /** Shows another stored version of a message (`‹ 2/3 ›`), and the conversation that followed it. */
  switchVersion: (messageId: string) => void;
  /** An answer is being requested or streamed: actions that start a new one wait. */
  isBusy: boolean;
}

export const ChatActionsContext = createContext<ChatActions | null>(null);

export function useChatActions(chatId: string): ChatActions | null {
  const actions = useContext(ChatActionsContext);
  return actions?.chatId === chatId ? actions : null;
}
