'use client';

import { totalTokens } from '@baton/delegation';
import type { TraceNode } from '@baton/schemas';
import { Clock, Coins, Footprints } from 'lucide-react';
import { useEffect } from 'react';
import { counted } from '@/lib/counted';
import { api } from '@/lib/api-client';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { formatElapsed, useNow } from '@/lib/use-now';
import { formatTokens, usageDetail } from '../chat/message-metadata';
import { RetryAlert } from '../ui/alert';
import { Spinner } from '../ui/spinner';
import { STATUS_LOOKS, StatusBadge } from './delegation-status';
import type { DelegationStatus } from '@/stores/delegation-store';

/** A task as one line of a tree. */
const SHORT_TASK = 90;

/** A node's badge: the delegation's outcome once it has one, else what its latest run is doing. */
export function traceNodeStatus(node: Pick<TraceNode, 'outcome' | 'status'>): DelegationStatus {
  if (node.outcome) return node.outcome;
  switch (node.status) {
    case 'running':
      return 'running';
    case 'succeeded':
      return 'success';
    case 'failed':
      return 'error';
    case 'cancelled':
    case 'interrupted':
    case 'awaiting_approval':
      return node.status;
    default:
      return 'queued';
  }
}

/**
 * The delegation trace of a chat (`GET …/chats/:id/trace`): the chat and every sub-chat
 * below it as an indented tree, each with its agent, task, status, duration, steps and
 * tokens. A node opens its sub-chat; while anything runs the tree is read again every few seconds.
 */
export function TraceView({ workspaceId, chatId, onOpenChat }: { workspaceId: string; chatId: string; onOpenChat: (chatId: string) => void }) {
  const { data, error, reload } = useApiQuery(queryKeys.trace(workspaceId, chatId), () => api.chats.trace(workspaceId, chatId));
  const running = data ? anyRunning(data.root) : false;
  const now = useNow(running, 2_000);
  // Read again while something runs: `now` ticks only then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the tick is the trigger.
  useEffect(() => {
    if (running) void reload();
  }, [now]);

  if (error) {
    return <RetryAlert onRetry={() => void reload()}>Could not load the delegation tree: {error.message}</RetryAlert>;
  }
  if (!data) return <Spinner label="Loading the delegation tree…" />;
  const total = sumTokens(data.root);
  const replaced = sumReplaced(data.root);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        {counted(countNodes(data.root) - 1, 'delegation')} · {formatTokens(total)} in the whole tree
        {/* Sub-chats of replaced answers are gone from the tree; what they spent is not. */}
        {replaced > 0 && <> (incl. {formatTokens(replaced)} spent by replaced answers’ delegations)</>}
      </p>
      <ul aria-label="Delegation tree" className="flex flex-col gap-1">
        <TraceItem node={data.root} level={0} onOpenChat={onOpenChat} />
      </ul>
    </div>
  );
}

function TraceItem({ node, level, onOpenChat }: { node: TraceNode; level: number; onOpenChat: (chatId: string) => void }) {
  const status = traceNodeStatus(node);
  const task = node.task ? (node.task.length > SHORT_TASK ? `${node.task.slice(0, SHORT_TASK - 1)}…` : node.task) : null;
  const tokens = totalTokens(node.usage);
  const name = node.agentName ?? 'deleted agent';
  // The chat the trace starts at is the page behind the viewer (or its own root): only sub-chats open here.
  const openable = node.depth > 0;
  const row = (
    <>
      <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium text-neutral-900 dark:text-neutral-100">{name}</span>
        <StatusBadge status={status} />
        {task && <span className="min-w-0 truncate text-neutral-600 dark:text-neutral-400">{task}</span>}
      </span>
      <span className="flex shrink-0 flex-wrap items-center gap-x-3 text-xs text-neutral-500 tabular-nums">
        {node.durationMs !== null && (
          <span className="inline-flex items-center gap-1" title="Duration">
            <Clock className="h-3.5 w-3.5" aria-hidden />
            {/* Written as the delegation blocks write a finished duration ("0.5 s", "2 min 05 s"). */}
            {formatElapsed(node.durationMs, { precise: true })}
          </span>
        )}
        <span className="inline-flex items-center gap-1" title="Model steps">
          <Footprints className="h-3.5 w-3.5" aria-hidden />
          {node.steps} {node.steps === 1 ? 'step' : 'steps'}
        </span>
        <span className="inline-flex items-center gap-1" title={`${usageDetail(node.usage)} tokens (its own)`}>
          <Coins className="h-3.5 w-3.5" aria-hidden />
          {formatTokens(tokens)}
        </span>
      </span>
    </>
  );
  const rowClasses = 'flex w-full flex-col gap-1 rounded-lg px-2 py-1.5 text-left text-sm sm:flex-row sm:items-center sm:justify-between sm:gap-3';
  return (
    <li aria-label={`${name}, ${STATUS_LOOKS[status].label.toLowerCase()}`} data-depth={node.depth}>
      <div style={{ paddingLeft: `${Math.min(level, 6) * 1.25}rem` }} className={level > 0 ? 'border-l border-neutral-200 dark:border-neutral-800' : ''}>
        {openable ? (
          <button
            type="button"
            onClick={() => onOpenChat(node.chatId)}
            className={`${rowClasses} cursor-pointer hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-800`}
          >
            {row}
          </button>
        ) : (
          <div className={rowClasses}>{row}</div>
        )}
      </div>
      {node.children.length > 0 && (
        <ul className="flex flex-col gap-1">
          {node.children.map((child) => (
            <TraceItem key={child.chatId} node={child} level={level + 1} onOpenChat={onOpenChat} />
          ))}
        </ul>
      )}
    </li>
  );
}

function anyRunning(node: TraceNode): boolean {
  // A paused node is read again too: a decision (perhaps in another tab) resumes it.
  return node.status === 'running' || node.status === 'awaiting_approval' || node.children.some(anyRunning);
}

function countNodes(node: TraceNode): number {
  return 1 + node.children.reduce((n, c) => n + countNodes(c), 0);
}

function sumTokens(node: TraceNode): number {
  return totalTokens(node.usage) + totalTokens(node.replacedUsage) + node.children.reduce((n, c) => n + sumTokens(c), 0);
}

function sumReplaced(node: TraceNode): number {
  return totalTokens(node.replacedUsage) + node.children.reduce((n, c) => n + sumReplaced(c), 0);
}
