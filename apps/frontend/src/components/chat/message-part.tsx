'use client';

import { DelegationBlock } from '../delegation/delegation-block';
import { TaskResultBlock } from '../delegation/task-result-block';
import { Markdown } from '../markdown/markdown';
import type { PartView } from './message-parts';
import { ToolCallBlock } from './tool-call-block';
import { SteeringBubble } from '../delegation/steering-bubble';
import { ThinkingSection } from './thinking-section';

/** One part of an agent's answer: markdown text, reasoning, a delegation, or a tool call. */
export function MessagePart({ view, workspaceId, chatId, streaming = false }: { view: PartView; workspaceId: string; chatId: string; streaming?: boolean }) {
  switch (view.kind) {
    case 'text':
      return <Markdown>{view.text}</Markdown>;
    case 'reasoning':
      return <ThinkingSection text={view.text} streaming={view.streaming && streaming} thinkingMs={view.thinkingMs} />;
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
