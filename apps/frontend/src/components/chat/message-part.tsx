'use client';

import { Brain } from 'lucide-react';
import { DelegationBlock } from '../delegation/delegation-block';
import { TaskResultBlock } from '../delegation/task-result-block';
import { Markdown } from '../markdown/markdown';
import type { PartView } from './message-parts';
import { ToolCallBlock } from './tool-call-block';
import { SteeringBubble } from '../delegation/steering-bubble';

/** One part of an agent's answer: markdown text, reasoning, a delegation, or a tool call. */
export function MessagePart({ view, workspaceId, chatId, streaming = false }: { view: PartView; workspaceId: string; chatId: string; streaming?: boolean }) {
  switch (view.kind) {
    case 'text':
      return <Markdown>{view.text}</Markdown>;
    case 'reasoning':
      return (
        <details className="rounded-lg border border-neutral-200 px-3 py-2 text-xs text-neutral-600 dark:border-neutral-800 dark:text-neutral-400">
          <summary className="flex cursor-pointer items-center gap-1.5 font-medium">
            <Brain className="h-3.5 w-3.5" aria-hidden />
            Reasoning
          </summary>
          <p className="mt-2 whitespace-pre-wrap">{view.text}</p>
        </details>
      );
    case 'delegation':
      return <DelegationBlock workspaceId={workspaceId} parentChatId={chatId} part={view.part} />;
    case 'task-result':
      return <TaskResultBlock part={view.part} streaming={streaming} />;
    case 'tool':
      return <ToolCallBlock workspaceId={workspaceId} name={view.name} part={view.part} />;
    case 'steering':
      return <SteeringBubble text={view.text} status="delivered" />;
  }
}
