'use client';

import { MessageListContext, type MessageListProps } from './message-list-context';
import { silentPhase } from './message-parts';
import { MessageItem } from './message-item';
import { useChatRetry } from '@/stores/run-retry-store';
import { SystemNote } from './system-note';
import { TypingIndicator } from './typing-indicator';
import { AgentSwitchNotice, agentSwitches } from './agent-switch-notice';
import { Fragment } from 'react';

/**
 * A conversation: the user's messages on the right, the agent's answers on the left (an API
 * caller's system messages as notes in their place), with
 * "Thinking…" and for how long while the model shows nothing (see silentPhase). Used by the chat page, stored
 * sub-chats and the sub-agent modal; Regenerate and Retry appear only inside a live chat
 * (see ChatActionsContext).
 */
export function MessageList({ messages, workspaceId, chatId, status }: MessageListProps) {
  const visible = messages.filter((m) => m.role !== 'system');
  const last = visible.at(-1);
  const busy = status === 'submitted' || status === 'streaming';
  const retry = useChatRetry(chatId);
  const silence = silentPhase(visible, status);
  const switches = agentSwitches(visible);
  return (
    <MessageListContext.Provider value={MessageList}>
      <ol aria-label="Messages" className="flex flex-col gap-6">
        {messages.map((message) =>
          message.role === 'system' ? (
            <SystemNote key={message.id} message={message} />
          ) : (
            <Fragment key={message.id}>
              {switches.has(message.id) && <AgentSwitchNotice agentName={switches.get(message.id)!} />}
              <MessageItem
                message={message}
                workspaceId={workspaceId}
                chatId={chatId}
                isLast={message === last}
                isStreaming={busy && message === last && message.role === 'assistant'}
              />
            </Fragment>
          ),
        )}
        {/* A retry after the answer's first step (a tool call, say) is shown below what arrived so far. */}
        {/* Keyed by the silence: the elapsed time starts again with each new one. */}
        {(silence || (busy && retry)) && <TypingIndicator key={silence ?? 'retry'} retry={retry} />}
      </ol>
    </MessageListContext.Provider>
  );
}
