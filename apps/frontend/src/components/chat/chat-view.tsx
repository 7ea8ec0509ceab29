'use client';

import { ArrowLeft, MessageSquareDashed, MessagesSquare } from 'lucide-react';
import Link from 'next/link';
import { ApiError, api } from '@/lib/api-client';
import { useQuery } from '@/lib/use-query';
import { Alert } from '../ui/alert';
import { Button, buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { MessageComposer } from './message-composer';
import { MessageList } from './message-list';

export const STREAMING_NOTE = 'Chat streaming arrives with the agent runtime.';

/**
 * One chat: its stored messages, read-only for now. The live conversation (useChat)
 * slots in here with the agent runtime; the composer is already in place.
 */
export function ChatView({ workspaceId, chatId }: { workspaceId: string; chatId: string }) {
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  const { data, error, reload } = useQuery(`chat:${workspaceId}:${chatId}`, async () => {
    const chat = await api.chats.get(workspaceId, chatId);
    const agent = chat.agentId ? await api.agents.get(workspaceId, chat.agentId).catch(() => undefined) : undefined;
    return { chat, agent };
  });

  if (error instanceof ApiError && error.isNotFound) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <EmptyState
          icon={MessageSquareDashed}
          title="Chat not found"
          action={<Link href={base} className={buttonClasses('secondary')}>Start a new chat</Link>}
        >
          This chat does not exist in this workspace. It may have been deleted.
        </EmptyState>
      </div>
    );
  }
  if (error) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <Alert action={<Button variant="ghost" size="sm" onClick={() => void reload()}>Retry</Button>}>
          Could not load this chat: {error.message}
        </Alert>
      </div>
    );
  }
  if (!data) return <div className="mx-auto max-w-3xl px-4"><Spinner label="Loading chat…" /></div>;

  const { chat, agent } = data;
  const isSubChat = Boolean(chat.parentChatId);
  return (
    <div className="flex h-full flex-col">
      <header className="shrink-0 border-b border-neutral-200 px-4 py-3 md:px-8 dark:border-neutral-800">
        <div className="mx-auto flex max-w-3xl flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="min-w-0 truncate text-base font-semibold">{chat.title.trim() || 'Untitled chat'}</h1>
          <span className="text-sm text-neutral-500">{agent ? `with ${agent.name}` : chat.agentId ? 'agent deleted' : 'no agent'}</span>
          {isSubChat && (
            <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
              Sub-agent{chat.status ? ` · ${chat.status}` : ''}
            </span>
          )}
        </div>
      </header>

      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-6 md:px-8">
        <div className="mx-auto flex max-w-3xl flex-col gap-4">
          {isSubChat && chat.parentChatId && (
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2 text-sm dark:border-neutral-800 dark:bg-neutral-900">
              <span className="text-neutral-600 dark:text-neutral-400">A sub-agent worked on this task for another chat. It is read-only.</span>
              <Link href={`${base}/chat/${encodeURIComponent(chat.parentChatId)}`} className="inline-flex items-center gap-1 font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                <ArrowLeft className="h-4 w-4" aria-hidden />
                Back to the parent chat
              </Link>
            </div>
          )}
          {chat.delegateTask && (
            <p className="rounded-lg bg-neutral-50 px-3 py-2 text-sm dark:bg-neutral-900">
              <span className="font-medium">Task: </span>
              {chat.delegateTask}
            </p>
          )}
          {chat.messages.length === 0 ? (
            <EmptyState icon={MessagesSquare} title="No messages yet">
              Messages you and the agent exchange in this chat will appear here.
            </EmptyState>
          ) : (
            <MessageList messages={chat.messages} />
          )}
        </div>
      </div>

      {!isSubChat && (
        <div className="shrink-0 px-4 pb-4 md:px-8">
          <div className="mx-auto max-w-3xl">
            <MessageComposer disabled disabledReason={STREAMING_NOTE} />
          </div>
        </div>
      )}
    </div>
  );
}
