import type { Agent, ChatWithMessages, UsageSplit } from '@baton/schemas';
import { ArrowLeft, MessagesSquare } from 'lucide-react';
import Link from 'next/link';
import { toUIMessages } from '@/lib/stored-messages';
import { openTrace } from '@/stores/delegation-viewer-store';
import { STATUS_LOOKS } from '../delegation/delegation-status';
import { outcomeOfSubChat } from '../delegation/sub-chat-outcome';
import { SubChatBrief } from '../delegation/sub-chat-brief';
import { formatUsageSplit } from './message-metadata';
import { EmptyState } from '../ui/empty-state';
import { ChatHeader } from './chat-header';
import { ChatModel } from './chat-model';
import { MessageList } from './message-list';
import { QuotedOutput } from '../markdown/image-policy';

/**
 * A sub-agent's chat opened by its URL: read-only (it belongs to its parent's delegation),
 * with the task it was given and a way back to the parent chat.
 */
export function SubChatView({ workspaceId, chat, agent }: { workspaceId: string; chat: ChatWithMessages; agent?: Agent }) {
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  return (
    <div className="flex h-full flex-col">
      <ChatHeader
        title={chat.title}
        agentLabel={agentLabel(chat, agent)}
        model={agent ? <ChatModel workspaceId={workspaceId} agent={agent} /> : undefined}
        subChatStatus={chat.status === 'running' ? 'Running' : chat.status ? STATUS_LOOKS[outcomeOfSubChat(chat)].label : ''}
        usage={<UsageText usage={chat.usage} />}
        onTrace={() => openTrace(workspaceId, chat.id)}
      />
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-6 md:px-8">
        <div className="mx-auto flex max-w-3xl flex-col gap-4">
          {chat.parentChatId && (
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2 text-sm dark:border-neutral-800 dark:bg-neutral-900">
              <span className="text-neutral-600 dark:text-neutral-400">A sub-agent worked on this task for another chat. It is read-only.</span>
              <Link
                href={`${base}/chat/${encodeURIComponent(chat.parentChatId)}`}
                className="inline-flex items-center gap-1 font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              >
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
          <SubChatBrief chat={chat} />
          {chat.messages.length === 0 ? (
            <EmptyState icon={MessagesSquare} title="No messages yet">
              The sub-agent has not written anything in this chat.
            </EmptyState>
          ) : (
            <QuotedOutput>
              <MessageList messages={toUIMessages(chat.messages)} workspaceId={workspaceId} chatId={chat.id} />
            </QuotedOutput>
          )}
        </div>
      </div>
    </div>
  );
}

/** "with Researcher", or why there is no agent to name. */
export function agentLabel(chat: { agentId: string | null }, agent?: Pick<Agent, 'name'>): string {
  if (agent) return `with ${agent.name}`;
  return chat.agentId ? 'agent deleted' : 'no agent';
}

function UsageText({ usage }: { usage: UsageSplit }) {
  const text = formatUsageSplit(usage);
  return text ? (
    <span className="whitespace-nowrap text-xs text-neutral-500 tabular-nums" title={text.detail} data-testid="chat-usage">
      {text.short}
    </span>
  ) : null;
}
