'use client';

import { newTaskOutputSchema } from '@baton/schemas';
import type { ToolUIPart } from 'ai';
import { ChevronRight, Clock, ExternalLink, Maximize2, Workflow } from 'lucide-react';
import Link from 'next/link';
import { useId, useState } from 'react';
import { CANCELLED_RESULT } from '@/lib/new-task-calls';
import { formatElapsed, useNow } from '@/lib/use-now';
import { delegationKey, isFinished, useDelegationStore, type DelegationStatus } from '@/stores/delegation-store';
import { StatusBadge } from './delegation-status';
import { ResultText } from './result-text';
import { SubChatTranscript } from './sub-chat-transcript';
import { TaskText } from './task-text';
import { useAgentName, useStoredSubChat } from './use-block-sources';

/**
 * A parent's `newTask` call in the transcript: sub-agent, task, status, duration, result.
 * While it runs, a button reopens the sub-agent modal; afterwards, expanding it loads the
 * sub-chat's conversation on demand. Works both for a delegation running in this page
 * (the store) and for one from an earlier visit (the stored output and sub-chat).
 */
export function DelegationBlock({ workspaceId, parentChatId, part }: { workspaceId: string; parentChatId: string; part: ToolUIPart }) {
  const input = (part.input ?? {}) as { subAgentId?: unknown; task?: unknown };
  const subAgentId = typeof input.subAgentId === 'string' ? input.subAgentId : undefined;
  const task = typeof input.task === 'string' ? input.task : '';
  const output = part.state === 'output-available' ? newTaskOutputSchema.safeParse(part.output).data : undefined;

  const live = useDelegationStore((s) => s.delegations[delegationKey(parentChatId, part.toolCallId)]);
  const openModal = useDelegationStore((s) => s.openModal);
  const stored = useStoredSubChat(workspaceId, parentChatId, part.toolCallId, !live && Boolean(output?.subChatId));
  const agentName = useAgentName(workspaceId, subAgentId, Boolean(live));

  const status: DelegationStatus =
    live?.status ??
    (part.state === 'output-error'
      ? 'error'
      : output?.status === 'success'
        ? 'success'
        : output && (stored?.status === 'cancelled' || output.result === CANCELLED_RESULT)
          ? 'cancelled'
          : output
            ? 'error'
            : 'starting');
  const name = live?.subAgentName ?? agentName ?? subAgentId ?? 'sub-agent';
  const result = live?.result ?? output?.result ?? (part.state === 'output-error' ? part.errorText : undefined);
  const subChatId = live?.subChatId ?? output?.subChatId ?? stored?.id ?? null;

  const running = !isFinished(status);
  const now = useNow(running && Boolean(live));
  const durationMs = live
    ? (live.finishedAt ?? now) - live.startedAt
    : stored && !running
      ? Date.parse(stored.updatedAt) - Date.parse(stored.createdAt)
      : undefined;

  const [expanded, setExpanded] = useState(false);
  const transcriptId = useId();

  return (
    <div
      role="group"
      aria-label={`Delegation to ${name}`}
      className="w-full rounded-xl border border-neutral-200 bg-neutral-50/60 text-sm dark:border-neutral-800 dark:bg-neutral-900/40"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 pt-2.5">
        <Workflow className="h-4 w-4 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
        <span className="min-w-0 truncate font-medium text-neutral-900 dark:text-neutral-100">
          {part.state === 'input-streaming' ? 'Preparing a task…' : `Delegated to ${name}`}
        </span>
        <StatusBadge status={status} />
        {durationMs !== undefined && (
          <span className="inline-flex items-center gap-1 text-xs text-neutral-500 tabular-nums">
            <Clock className="h-3.5 w-3.5" aria-hidden />
            <span className="sr-only">Duration: </span>
            {formatElapsed(durationMs, { precise: !running })}
          </span>
        )}
        {live && running && live.subChatId && (
          <button
            type="button"
            onClick={() => openModal(parentChatId, live.batchId, live.key)}
            aria-label={`Reopen ${name}`}
            className="ml-auto inline-flex cursor-pointer items-center gap-1 rounded-md border border-neutral-300 bg-white px-2 py-1 text-xs font-medium text-neutral-800 hover:bg-neutral-100 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-200 dark:hover:bg-neutral-800"
          >
            <Maximize2 className="h-3.5 w-3.5" aria-hidden />
            Reopen
          </button>
        )}
      </div>

      <div className="px-3 pt-1.5 pb-2.5 text-neutral-600 dark:text-neutral-400">
        <TaskText task={task} />
      </div>

      {result && (
        <div className="border-t border-neutral-200 px-3 py-2.5 dark:border-neutral-800">
          <ResultText result={result} />
        </div>
      )}

      {subChatId && !running && (
        <div className="flex flex-wrap items-center justify-between gap-2 border-t border-neutral-200 px-3 py-2 dark:border-neutral-800">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={transcriptId}
            onClick={() => setExpanded(!expanded)}
            className="inline-flex cursor-pointer items-center gap-1 text-xs font-medium text-neutral-700 hover:text-neutral-950 dark:text-neutral-300 dark:hover:text-white"
          >
            <ChevronRight className={`h-3.5 w-3.5 transition-transform ${expanded ? 'rotate-90' : ''}`} aria-hidden />
            {expanded ? 'Hide the conversation' : 'Show the conversation'}
          </button>
          <Link
            href={`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(subChatId)}`}
            className="inline-flex items-center gap-1 text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            <ExternalLink className="h-3.5 w-3.5" aria-hidden />
            Open sub-chat
          </Link>
        </div>
      )}
      {subChatId && !running && (
        <div
          id={transcriptId}
          hidden={!expanded}
          className="max-h-[28rem] overflow-y-auto rounded-b-xl border-t border-neutral-200 bg-white px-3 py-3 dark:border-neutral-800 dark:bg-neutral-950"
        >
          {/* Mounted on first expand: the conversation is fetched only when asked for. */}
          {expanded && <SubChatTranscript workspaceId={workspaceId} subChatId={subChatId} />}
        </div>
      )}
    </div>
  );
}
