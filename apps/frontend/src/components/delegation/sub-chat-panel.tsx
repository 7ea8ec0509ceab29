'use client';

import { NOTE_TOOL, type BatonUIMessage } from '@baton/schemas';
import { useChat, type Chat } from '@ai-sdk/react';
import { useEffect, useMemo, useRef } from 'react';
import { peekChatSession } from '@/lib/chat-sessions';
import { useChatQuery } from '@/lib/use-api-query';
import { isFinished, type Delegation } from '@/stores/delegation-store';
import { deliveredSteeringIds } from '../chat/message-parts';
import { MessageList } from '../chat/message-list';
import { useStickToBottom } from '../chat/use-stick-to-bottom';
import { Spinner } from '../ui/spinner';
import { StatusBadge } from './delegation-status';
import { SubChatEndNote } from './sub-chat-end-note';
import { ProgressStats, useSubAgentProgress } from './live-progress';
import { SubChatBrief } from './sub-chat-brief';
import { PendingSteeringList } from './steering-bubble';
import { SteeringForm } from './steering-form';
import { useSteering } from './use-steering';
import { useSubChatAttempts } from './use-block-sources';
import { QuotedOutput } from '../markdown/image-policy';

/** Status, elapsed time and step count of one sub-agent, then its conversation as it streams. */
export function SubChatPanel({ delegation }: { delegation: Delegation }) {
  const session = delegation.subChatId ? peekChatSession(delegation.subChatId) : undefined;
  if (delegation.status === 'queued' && (!session || session.messages.length === 0)) {
    return (
      <div className="flex flex-col items-start gap-2 p-4 text-sm text-neutral-600 dark:text-neutral-400" role="group" aria-label="Sub-agent progress">
        <StatusBadge status="queued" />
        <p>Waiting for a free slot: the agent runs a limited number of sub-agents at once, and this one starts when an earlier one finishes.</p>
      </div>
    );
  }
  if (!session) {
    return (
      <div className="p-4">
        <Spinner label="Starting the sub-agent…" />
      </div>
    );
  }
  return <LiveSubChat delegation={delegation} session={session} />;
}

function LiveSubChat({ delegation, session }: { delegation: Delegation; session: Chat<BatonUIMessage> }) {
  // At most one render per STREAM_THROTTLE_MS while tokens arrive, however fast they come.
  const { messages, status } = useChat({ chat: session, throttle: STREAM_THROTTLE_MS });
  const running = !isFinished(delegation.status);
  // The server stores the sub-chat when its task is sent and answers with the first chunk:
  // before that, reading it (brief, steering) would only find nothing (404s in the console).
  const onServer = !running || messages.some((m) => m.role === 'assistant');
  const notes = useMemo(() => savedNotes(messages), [messages]);
  const progress = useSubAgentProgress(delegation);
  // Messages the person sent it: shown in the transcript once delivered, below it until then.
  const delivered = useMemo(() => deliveredSteeringIds(messages), [messages]);
  const steering = useSteering(delegation.workspaceId, session.id, running, delivered, onServer);
  // A retried delegation runs its next attempt here: say which.
  const attempt = useSubChatAttempts(delegation.workspaceId, delegation.parentChatId, delegation.toolCallId).find((a) => a.id === session.id)?.attempt;

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
        {/* Polite live region: a screen reader hears "Done" without the ticking clock. */}
        <span aria-live="polite">
          <StatusBadge status={delegation.status} />
        </span>
        <ProgressStats delegation={delegation} progress={progress} />
        {attempt !== undefined && attempt > 1 && <span className="font-medium text-neutral-800 dark:text-neutral-200">Attempt {attempt}</span>}
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
        <div ref={content} className="flex flex-col gap-4">
          {onServer && <StoredBrief workspaceId={delegation.workspaceId} subChatId={session.id} notes={notes} />}
          <QuotedOutput>
            <MessageList messages={messages} workspaceId={delegation.workspaceId} chatId={session.id} status={status} />
          </QuotedOutput>
          <SubChatEndNote delegation={delegation} messages={messages} />
          <PendingSteeringList pending={steering.pending} />
        </div>
      </div>
      {delegation.status === 'running' && (
        <SteeringForm workspaceId={delegation.workspaceId} agentName={delegation.subAgentName} onSend={steering.send} error={steering.error} />
      )}
    </div>
  );
}

/** Renders of a streaming sub-chat per second are capped at 1000 / this (20 a second reads as smooth text). */
const STREAM_THROTTLE_MS = 50;

/** The `note` calls the sub-agent's stream has finished: each one added a note to the stored sub-chat. */
function savedNotes(messages: BatonUIMessage[]): number {
  let count = 0;
  for (const m of messages) for (const p of m.parts) if (p.type === `tool-${NOTE_TOOL}` && 'state' in p && p.state === 'output-available') count++;
  return count;
}

/** A sub-agent writing notes fast (dozens a minute) reads its row at most this often: each read carries the whole transcript. */
const BRIEF_READ_GAP_MS = 2_000;

/**
 * The stored sub-chat's context, tools and notes (they are on the sub-chat row, not in its
 * messages), from the query cache. The notes grow as it works, and its stream says when: the
 * row is read again when a `note` call finishes (no reads while none does), at most once per
 * BRIEF_READ_GAP_MS with the last note always read; the run's end reads it anyway (run-ended.ts).
 */
function StoredBrief({ workspaceId, subChatId, notes }: { workspaceId: string; subChatId: string; notes: number }) {
  // A copy read within the gap serves a panel that mounts again (the modal stepping aside and
  // back as the run ends): the run's end has just read it, and a note still reloads it.
  const { data, reload } = useChatQuery(workspaceId, subChatId, { staleTime: BRIEF_READ_GAP_MS });
  const lastRead = useRef(0);
  useEffect(() => {
    if (notes === 0) return;
    const wait = Math.max(0, lastRead.current + BRIEF_READ_GAP_MS - Date.now());
    const timer = setTimeout(() => {
      lastRead.current = Date.now();
      void reload();
    }, wait);
    // A newer note before then takes this one's place.
    return () => clearTimeout(timer);
  }, [notes, reload]);
  return data ? <SubChatBrief chat={data} /> : null;
}
