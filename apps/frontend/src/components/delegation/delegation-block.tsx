'use client';

import { attachmentsOf, readNewTaskOutput, totalTokens } from '@baton/delegation';
import { subAgentProgressSchema, type TokenUsage } from '@baton/schemas';
import { ChevronRight, Clock, Coins, ExternalLink, Eye, Footprints, Maximize2, Network, Scissors, Workflow } from 'lucide-react';
import Link from 'next/link';
import { useId, useState } from 'react';
import { peekChatSession } from '@/lib/chat-sessions';
import { formatElapsed, useNow } from '@/lib/use-now';
import { delegationKey, isFinished, useDelegationStore, type DelegationStatus } from '@/stores/delegation-store';
import { openSubChat, openTrace } from '@/stores/delegation-viewer-store';
import type { NewTaskPart } from '@baton/delegation';
import { formatTokens, usageDetail } from '../chat/message-metadata';
import { storedTimes } from './delegation-outcome';
import { DelegationAttempts } from './delegation-attempts';
import { ApprovalControls } from './approval-controls';
import { StatusBadge } from './delegation-status';
import { useSubAgentProgress } from './live-progress';
import { ResultText } from './result-text';
import { SubChatTranscript } from './sub-chat-transcript';
import { TaskAttachmentList } from './task-attachment-list';
import { taskAttachments } from './task-attachments';
import { TaskText } from './task-text';
import { useStoredSubChat, useSubAgentName } from './use-block-sources';
import { useSharedChat } from '../shared/shared-chat-context';

const linkButton =
  'inline-flex cursor-pointer items-center gap-1 text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400 ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-500';

/**
 * A `newTask` call in a transcript: sub-agent, task, status, duration, steps, tokens, result.
 * Works for a delegation this page runs (the store: the top-level chat's calls), for one
 * the server runs (a sub-agent's own calls: progress from the preliminary outputs, then the
 * final output), and for one from an earlier visit (the stored output and sub-chat). The
 * status is the output's `outcome`, never read from the result text.
 */
export function DelegationBlock({ workspaceId, parentChatId, part }: { workspaceId: string; parentChatId: string; part: NewTaskPart }) {
  const subAgentId = typeof part.input?.subAgentId === 'string' ? part.input.subAgentId : undefined;
  const task = typeof part.input?.task === 'string' ? part.input.task : '';
  // Named from the parent's messages in this tab (the live chat's session holds them).
  const attachments = taskAttachments(workspaceId, attachmentsOf(part.input), peekChatSession(parentChatId)?.messages ?? []);
  const preliminary = part.state === 'output-available' && part.preliminary === true;
  const output = part.state === 'output-available' && !preliminary ? readNewTaskOutput(part.output) : undefined;
  const progress = preliminary ? subAgentProgressSchema.safeParse(part.output).data : undefined;

  const live = useDelegationStore((s) => s.delegations[delegationKey(parentChatId, part.toolCallId)]);
  const openModal = useDelegationStore((s) => s.openModal);
  const stored = useStoredSubChat(workspaceId, parentChatId, part.toolCallId, !live && Boolean(output?.subChatId ?? progress?.subChatId));
  const agentName = useSubAgentName(workspaceId, subAgentId);

  // Waiting for a person (the root agent's requireApproval): stored in the message, so a reload shows it too.
  const awaitingApproval = part.state === 'approval-requested';
  const status: DelegationStatus =
    live?.status ?? (awaitingApproval ? 'awaiting_approval' : part.state === 'output-error' ? 'error' : (output?.outcome ?? progress?.status ?? 'starting'));
  // Never the raw agent id while the name loads (the store holds the id until its check ends).
  const name = agentName ?? (live && live.subAgentName !== subAgentId ? live.subAgentName : undefined) ?? 'a sub-agent';
  const result = live?.result ?? output?.result ?? (part.state === 'output-error' ? part.errorText : undefined);
  const subChatId = live?.subChatId ?? output?.subChatId ?? progress?.subChatId ?? stored?.id ?? null;
  // This page's own sub-agents: steps and tokens so far from their live sessions.
  const liveProgress = useSubAgentProgress(live);
  const usage = (live ? liveProgress.usage : undefined) ?? output?.usage ?? progress?.usage;
  const steps = live ? liveProgress.steps : progress?.steps;
  const truncated = live ? live.truncated : Boolean(output?.truncated);

  const running = !isFinished(status) && !awaitingApproval;
  const now = useNow(running && Boolean(live));
  // One source once it ended: the stored sub-chat's times (storedTimes), live and after a reload.
  const durationMs = live ? (live.finishedAt ?? now) - live.startedAt : stored && !running ? durationOf(storedTimes(stored)) : undefined;

  const [expanded, setExpanded] = useState(false);
  const transcriptId = useId();
  // A shared chat is read-only and has no API behind it: the conversation expands in place, nothing opens elsewhere.
  const readOnly = Boolean(useSharedChat());
  // The top-level chat's running sub-agents live in the modal; deeper ones (server-run) in the viewer.
  const inModal = Boolean(live && running && live.subChatId);

  return (
    <div
      role="group"
      aria-label={`Delegation to ${name}`}
      data-status={status}
      // The sub-agent modal returns focus here when it closes (delegation-modal.tsx).
      data-delegation-key={live?.key}
      tabIndex={-1}
      className="w-full rounded-xl border border-neutral-200 bg-neutral-50/60 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-neutral-800 dark:bg-neutral-900/40"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 pt-2.5">
        <Workflow className="h-4 w-4 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
        <span className="min-w-0 truncate font-medium text-neutral-900 dark:text-neutral-100">
          {part.state === 'input-streaming'
            ? 'Preparing a task…'
            : awaitingApproval
              ? `Wants to delegate to ${name}`
              : status === 'rejected'
                ? `Not delegated to ${name}`
                : `Delegated to ${name}`}
        </span>
        <StatusBadge status={status} />
        {durationMs !== undefined && (
          <span className="inline-flex items-center gap-1 text-xs text-neutral-500 tabular-nums">
            <Clock className="h-3.5 w-3.5" aria-hidden />
            <span className="sr-only">Duration: </span>
            {formatElapsed(durationMs, { precise: !running })}
          </span>
        )}
        {steps !== undefined && steps > 0 && (
          <span className="inline-flex items-center gap-1 text-xs text-neutral-500 tabular-nums">
            <Footprints className="h-3.5 w-3.5" aria-hidden />
            {steps} {steps === 1 ? 'step' : 'steps'}
          </span>
        )}
        {usage && <TokenCount usage={usage} />}
        {inModal && live && (
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
        <TaskAttachmentList files={attachments} />
        {running && progress?.preview && (
          <p className="mt-1 line-clamp-2 text-xs text-neutral-500 italic" aria-live="polite">
            {progress.preview}
          </p>
        )}
      </div>

      {awaitingApproval && !readOnly && (
        <ApprovalControls workspaceId={workspaceId} parentChatId={parentChatId} toolCallId={part.toolCallId} subAgentName={name} task={task} />
      )}

      {result && (
        <div className="border-t border-neutral-200 px-3 py-2.5 dark:border-neutral-800">
          <ResultText result={result} />
          {truncated && (
            <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">
              <Scissors className="h-3.5 w-3.5 shrink-0" aria-hidden />
              <span>Truncated: the agent received the result cut to its length limit.</span>
              {subChatId && !readOnly && (
                <button type="button" className={linkButton} onClick={() => openSubChat(workspaceId, subChatId)}>
                  Read the whole result in the sub-chat
                </button>
              )}
            </p>
          )}
        </div>
      )}

      {subChatId && (!running || !inModal) && part.state !== 'input-streaming' && !(readOnly && running) && (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-neutral-200 px-3 py-2 dark:border-neutral-800">
          {!running && (
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
          )}
          {!readOnly && (
            <span className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-2">
              <button type="button" className={linkButton} onClick={() => openSubChat(workspaceId, subChatId)} aria-label={`View the sub-chat of ${name}`}>
                <Eye className="h-3.5 w-3.5" aria-hidden />
                {running ? 'Follow' : 'View'}
              </button>
              <button type="button" className={linkButton} onClick={() => openTrace(workspaceId, subChatId)} aria-label={`Delegation tree of ${name}`}>
                <Network className="h-3.5 w-3.5" aria-hidden />
                Tree
              </button>
              <Link href={`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(subChatId)}`} className={linkButton}>
                <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                Open sub-chat
              </Link>
            </span>
          )}
        </div>
      )}
      {!running && !preliminary && (part.state === 'output-available' || part.state === 'output-error') && (
        <DelegationAttempts
          workspaceId={workspaceId}
          parentChatId={parentChatId}
          toolCallId={part.toolCallId}
          subChatId={subChatId}
          subAgentId={subAgentId}
          task={task}
          name={name}
        />
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

/** "1,234 tokens" (in/out in the tooltip), for the sub-agent and its own sub-agents. */
function TokenCount({ usage }: { usage: TokenUsage }) {
  const total = totalTokens(usage);
  // A remote (A2A) agent reports no tokens: unknown, never 0.
  if (usage.unknown)
    return (
      <span className="inline-flex items-center gap-1 text-xs text-neutral-500" title="A remote agent reports no token usage" data-testid="usage-unknown">
        <Coins className="h-3.5 w-3.5" aria-hidden />
        {total ? `${formatTokens(total, usage.estimated)} + unknown` : 'usage unknown'}
      </span>
    );
  if (!total) return null;
  return (
    <span className="inline-flex items-center gap-1 text-xs text-neutral-500 tabular-nums" title={`${usageDetail(usage)} tokens, its own sub-agents included`}>
      <Coins className="h-3.5 w-3.5" aria-hidden />
      {formatTokens(total, usage.estimated)}
    </span>
  );
}

const durationOf = ({ startedAt, finishedAt }: { startedAt: number; finishedAt: number }) => finishedAt - startedAt;
