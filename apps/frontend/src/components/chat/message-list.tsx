'use client';

import { MessageListContext, type MessageListProps } from './message-list-context';
import { silentPhase } from './message-parts';
import { MessageItem } from './message-item';
import { useChatRetry } from '@/stores/run-retry-store';
import { SystemNote } from './system-note';
import { TypingIndicator } from './typing-indicator';
import { readMessageMetadata, type BatonUIMessage } from '@baton/schemas';
import { ArrowRightLeft } from 'lucide-react';
import { Fragment } from 'react';

/**
 * Where a chat's agent was switched: the answers (by id) written by another agent than the
 * answer before them, with the new agent's name as it was then. Answers that do not say who
 * wrote them (stored before Baton recorded it) start nothing and end nothing.
 */
function agentSwitches(messages: BatonUIMessage[]): Map<string, string> {
  const switches = new Map<string, string>();
  let previous: string | undefined;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const { agentId, agentName } = readMessageMetadata(m.metadata);
    if (!agentId || !agentName) continue;
    if (previous && previous !== agentId) switches.set(m.id, agentName);
    previous = agentId;
  }
  return switches;
}

function AgentSwitchNotice({ agentName }: { agentName: string }) {
  return (
    <li role="note" data-testid="agent-switch-notice" className="flex items-center gap-3 text-xs text-neutral-500">
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" aria-hidden />
      <span className="inline-flex items-center gap-1.5">
        <ArrowRightLeft className="h-3.5 w-3.5" aria-hidden />
        Switched to {agentName}
      </span>
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" aria-hidden />
    </li>
  );
}

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
  const lastUser = visible.filter((m) => m.role === 'user').at(-1);
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
                isLastUser={message === lastUser}
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
