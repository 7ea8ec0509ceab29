'use client';

import { useChat, type Chat as ChatSession } from '@ai-sdk/react';
import type { BatonUIMessage, ChatWithMessages } from '@baton/schemas';
import { useEffect, useMemo, useRef } from 'react';
import { followChat, getChatSession, peekChatSession } from '@/lib/chat-sessions';
import { toUIMessages } from '@/lib/stored-messages';
import { useChatQuery } from '@/lib/use-api-query';
import { deliveredSteeringIds } from '../chat/message-parts';
import { MessageList } from '../chat/message-list';
import { RetryAlert } from '../ui/alert';
import { Spinner } from '../ui/spinner';
import { StatusBadge } from './delegation-status';
import { outcomeOfSubChat } from './sub-chat-outcome';
import { SubChatBrief } from './sub-chat-brief';
import { PendingSteeringList } from './steering-bubble';
import { SteeringForm } from './steering-form';
import { TaskText } from './task-text';
import { useSubAgentName } from './use-block-sources';
import { useSteering } from './use-steering';
import { QuotedOutput } from '../markdown/image-policy';

/**
 * A sub-chat in the delegation viewer: the task, what the sub-agent was given, its notes
 * and tools, then its transcript. A sub-chat still running (a server-run nested delegation,
 * or one of this page's) is followed live through its run stream, like the modal's panel,
 * and takes messages for its sub-agent (steering).
 */
const PAUSED_RELOAD_MS = 2_000;

export function SubChatDetail({ workspaceId, chatId }: { workspaceId: string; chatId: string }) {
  const query = useChatQuery(workspaceId, chatId);
  const { reload } = query;
  const chat = query.data ?? undefined;
  const error = query.data === null ? new Error('This sub-chat does not exist (yet).') : query.error;
  // Paused for a decision. One made in its block here reads the chat at once (approval-controls.tsx);
  // one made in another tab reaches this page through no stream (nothing runs meanwhile), so
  // while paused the chat is read again every PAUSED_RELOAD_MS until it resumes.
  const paused = Boolean(chat && !chat.activeRun && chat.status === 'running' && chat.pendingApprovals.length > 0);
  useEffect(() => {
    if (!paused) return;
    const timer = setInterval(() => void reload(), PAUSED_RELOAD_MS);
    return () => clearInterval(timer);
  }, [paused, reload]);
  if (error) {
    return <RetryAlert onRetry={() => void reload()}>Could not load the sub-chat: {error.message}</RetryAlert>;
  }
  if (!chat) return <Spinner label="Loading the sub-chat…" />;
  return (
    <div className="flex flex-col gap-3">
      <SubChatSummary chat={chat} />
      {chat.delegateTask && (
        <div className="rounded-lg bg-neutral-50 px-3 py-2 text-sm text-neutral-700 dark:bg-neutral-900 dark:text-neutral-300">
          <TaskText task={chat.delegateTask} />
        </div>
      )}
      <SubChatBrief chat={chat} />
      {chat.activeRun ? (
        <FollowedTranscript workspaceId={workspaceId} chat={chat} />
      ) : chat.messages.length === 0 ? (
        <p className="text-sm text-neutral-500">The sub-agent has no messages yet.</p>
      ) : (
        <QuotedOutput>
          <MessageList messages={toUIMessages(chat.messages)} workspaceId={workspaceId} chatId={chat.id} />
        </QuotedOutput>
      )}
    </div>
  );
}

function SubChatSummary({ chat }: { chat: ChatWithMessages }) {
  const paused = !chat.activeRun && chat.status === 'running' && chat.pendingApprovals.length > 0;
  const status = paused ? 'awaiting_approval' : chat.activeRun || chat.status === 'running' ? 'running' : outcomeOfSubChat(chat);
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-neutral-600 dark:text-neutral-400" role="group" aria-label="Sub-chat status">
      <StatusBadge status={status} />
      <span>Depth {chat.depth}</span>
    </div>
  );
}

/** The transcript of a running sub-chat, continuing word by word until its run ends. */
function FollowedTranscript({ workspaceId, chat }: { workspaceId: string; chat: ChatWithMessages }) {
  const chatId = chat.id;
  const session: ChatSession<BatonUIMessage> = useMemo(
    () =>
      peekChatSession(chat.id) ??
      // Named a sub-chat (its parent in the body), so its own page opens it read-only too.
      getChatSession({ workspaceId, chatId: chat.id, body: { parentChatId: chat.parentChatId }, messages: toUIMessages(chat.messages) }),
    [workspaceId, chat.id, chat.parentChatId, chat.messages],
  );
  const { messages, status } = useChat({ chat: session });
  const opened = useRef(chat);
  opened.current = chat;
  // Once per opened chat: the follow itself picks up runs that begin meanwhile, and its last
  // read of the chat (into the query cache) shows the ended run here.
  useEffect(() => {
    void followChat(chatId, opened.current).catch(() => {});
  }, [chatId]);
  // A running sub-agent takes messages here too (nested ones, REST-started ones): see steering-form.tsx.
  const delivered = useMemo(() => deliveredSteeringIds(messages), [messages]);
  const steering = useSteering(workspaceId, chatId, true, delivered);
  const name = useSubAgentName(workspaceId, chat.agentId ?? undefined) ?? 'the sub-agent';
  return (
    <>
      <QuotedOutput>
        <MessageList messages={messages} workspaceId={workspaceId} chatId={chat.id} status={status} />
      </QuotedOutput>
      <PendingSteeringList pending={steering.pending} />
      <SteeringForm workspaceId={workspaceId} agentName={name} onSend={steering.send} error={steering.error} />
    </>
  );
}
