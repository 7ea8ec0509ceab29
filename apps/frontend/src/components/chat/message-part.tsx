'use client';

import { memo } from 'react';
import { DelegationBlock } from '../delegation/delegation-block';
import { TaskResultBlock } from '../delegation/task-result-block';
import { Markdown } from '../markdown/markdown';
import type { PartView } from './message-parts';
import { ToolCallBlock } from './tool-call-block';
import { SteeringBubble } from '../delegation/steering-bubble';
import { ThinkingSection } from './thinking-section';

interface MessagePartProps {
  view: PartView;
  workspaceId: string;
  chatId: string;
  streaming?: boolean;
}

/**
 * One part of an agent's answer: markdown text, reasoning, a delegation, or a tool call.
 * Memoised by content: the AI SDK copies every part of a streaming message on each chunk,
 * so only a part whose text, state, input or output changed renders again.
 */
export const MessagePart = memo(function MessagePart({ view, workspaceId, chatId, streaming = false }: MessagePartProps) {
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
      return <ToolCallBlock workspaceId={workspaceId} name={view.name} part={view.part} streaming={streaming} />;
    case 'steering':
      return <SteeringBubble text={view.text} files={view.files} status="delivered" />;
  }
}, samePart);

function samePart(a: MessagePartProps, b: MessagePartProps): boolean {
  if (a.workspaceId !== b.workspaceId || a.chatId !== b.chatId || a.streaming !== b.streaming) return false;
  const x = a.view;
  const y = b.view;
  if (x === y) return true;
  if (x.kind !== y.kind) return false;
  if ('text' in x || 'text' in y) {
    // A thinking block also changes when it stops streaming and when its time arrives.
    const extra = (v: typeof x) => v as { id?: string; streaming?: boolean; thinkingMs?: number };
    const [ex, ey] = [extra(x), extra(y)];
    return 'text' in x && 'text' in y && x.text === y.text && ex.id === ey.id && ex.streaming === ey.streaming && ex.thinkingMs === ey.thinkingMs;
  }
  if (!('part' in x) || !('part' in y)) return false;
  // A tool part's nested values keep their identity across the SDK's copies until they change.
  const p = x.part as Record<string, unknown>;
  const q = y.part as Record<string, unknown>;
  return (
    p.toolCallId === q.toolCallId &&
    p.state === q.state &&
    p.input === q.input &&
    p.output === q.output &&
    p.errorText === q.errorText &&
    p.approval === q.approval &&
    p.preliminary === q.preliminary
  );
}
