'use client';

import { useChat, type Chat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { Clock, Footprints } from 'lucide-react';
import { useRef } from 'react';
import { peekChatSession } from '@/lib/chat-sessions';
import { formatElapsed, useNow } from '@/lib/use-now';
import { isFinished, type Delegation } from '@/stores/delegation-store';
import { MessageList } from '../chat/message-list';
import { useStickToBottom } from '../chat/use-stick-to-bottom';
import { Spinner } from '../ui/spinner';
import { countSteps } from './delegation-outcome';
import { StatusBadge } from './delegation-status';

/** Status, elapsed time and step count of one sub-agent, then its conversation as it streams. */
export function SubChatPanel({ delegation }: { delegation: Delegation }) {
  const session = delegation.subChatId ? peekChatSession(delegation.subChatId) : undefined;
  if (!session) {
    return (
      <div className="p-4">
        <Spinner label="Starting the sub-agent…" />
      </div>
    );
  }
  return <LiveSubChat delegation={delegation} session={session} />;
}

function LiveSubChat({ delegation, session }: { delegation: Delegation; session: Chat<UIMessage> }) {
  const { messages, status } = useChat({ chat: session });
  const running = !isFinished(delegation.status);
  const now = useNow(running);
  const elapsed = (delegation.finishedAt ?? now) - delegation.startedAt;
  // The live transcript counts steps as they start; the store has the count of a watched run.
  const steps = Math.max(delegation.steps, countSteps(messages));

  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  useStickToBottom(scroller, content);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div
        className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-b border-neutral-200 px-4 py-2 text-xs text-neutral-600 dark:border-neutral-800 dark:text-neutral-400"
        aria-label="Sub-agent progress"
        role="group"
      >
        {/* Polite live region: a screen reader hears "Succeeded" without the ticking clock. */}
        <span aria-live="polite">
          <StatusBadge status={delegation.status} />
        </span>
        <span className="inline-flex items-center gap-1" title="Elapsed time">
          <Clock className="h-3.5 w-3.5" aria-hidden />
          <span className="sr-only">Elapsed time: </span>
          <span className="tabular-nums">{formatElapsed(elapsed, { precise: !running })}</span>
        </span>
        <span className="inline-flex items-center gap-1" title="Model steps">
          <Footprints className="h-3.5 w-3.5" aria-hidden />
          <span className="tabular-nums">
            {steps} {steps === 1 ? 'step' : 'steps'}
          </span>
        </span>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
        <div ref={content} className="flex flex-col gap-4">
          <MessageList messages={messages} workspaceId={delegation.workspaceId} chatId={session.id} status={status} />
          {isFinished(delegation.status) && delegation.status !== 'success' && delegation.result && (
            <p
              className={
                'rounded-lg border px-3 py-2 text-sm ' +
                (delegation.status === 'cancelled'
                  ? 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200'
                  : 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200')
              }
            >
              {delegation.result}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
