'use client';

import { addUsage, countSteps, NO_USAGE, totalTokens } from '@baton/delegation';
import type { BatonUIMessage, TokenUsage } from '@baton/schemas';
import { Clock, Coins, Footprints } from 'lucide-react';
import { useCallback, useSyncExternalStore } from 'react';
import { peekChatSession } from '@/lib/chat-sessions';
import { formatElapsed, useNow } from '@/lib/use-now';
import { isFinished, type Delegation } from '@/stores/delegation-store';
import { answerMetadata, formatTokens, usageDetail } from '../chat/message-metadata';

/*
 * Live progress of a sub-agent this page runs: steps and tokens so far, read from its
 * session's stream (a step starts → `step-start`; a step ends → the answer's metadata
 * carries the usage so far, see the backend's turn.ts), and the elapsed time. The modal's
 * panel and tabs and the delegation blocks all show the same numbers.
 */

export interface SubAgentProgress {
  steps: number;
  /** Tokens so far (the sub-agent's own, plus what its own sub-agents reported). */
  usage: TokenUsage | null;
}

/** Steps and tokens in a sub-chat's messages (its answers' latest metadata). */
export function progressOf(messages: readonly BatonUIMessage[]): SubAgentProgress {
  let usage: TokenUsage | null = null;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const split = answerMetadata(m.metadata).usage;
    if (split) usage = addUsage(usage ?? NO_USAGE, split.total);
  }
  return { steps: countSteps(messages), usage };
}

const noSubscription = () => () => {};

/**
 * The delegation's progress: from its live session while there is one, else (and once the
 * stored outcome is in) from the store. Re-renders as the session's messages change.
 */
export function useSubAgentProgress(delegation: Delegation | undefined): SubAgentProgress {
  const session = delegation?.subChatId ? peekChatSession(delegation.subChatId) : undefined;
  const subscribe = useCallback((onChange: () => void) => (session ? session['~registerMessagesCallback'](onChange, 250) : noSubscription()), [session]);
  const messages = useSyncExternalStore(
    subscribe,
    () => session?.messages,
    () => undefined,
  );
  const live = messages ? progressOf(messages) : { steps: 0, usage: null };
  if (!delegation) return live;
  const finished = isFinished(delegation.status);
  return {
    // The live transcript counts steps as they start; the store has the count of a watched run.
    steps: Math.max(delegation.steps, live.steps),
    // Once ended, the stored usage (its whole subtree) is the number that stays.
    usage: finished && delegation.usage ? delegation.usage : (live.usage ?? delegation.usage),
  };
}

/** Elapsed time (ticking while it runs), steps and tokens, as compact inline stats. */
export function ProgressStats({ delegation, progress, className = '' }: { delegation: Delegation; progress: SubAgentProgress; className?: string }) {
  const running = !isFinished(delegation.status);
  const now = useNow(running && delegation.status !== 'queued');
  const elapsed = delegation.status === 'queued' ? null : (delegation.finishedAt ?? now) - delegation.startedAt;
  const tokens = progress.usage ? totalTokens(progress.usage) : 0;
  return (
    <span className={`inline-flex flex-wrap items-center gap-x-3 gap-y-1 tabular-nums ${className}`}>
      {elapsed !== null && (
        <span className="inline-flex items-center gap-1" title="Elapsed time">
          <Clock className="h-3.5 w-3.5" aria-hidden />
          <span className="sr-only">Elapsed time: </span>
          {formatElapsed(elapsed, { precise: !running })}
        </span>
      )}
      <span className="inline-flex items-center gap-1" title="Model steps">
        <Footprints className="h-3.5 w-3.5" aria-hidden />
        {progress.steps} {progress.steps === 1 ? 'step' : 'steps'}
      </span>
      {/* Unknown until a step has ended (and for a run stopped mid-step): shown once there is a number. */}
      {progress.usage && (
        <span className="inline-flex items-center gap-1" title={`${usageDetail(progress.usage)} tokens so far`}>
          <Coins className="h-3.5 w-3.5" aria-hidden />
          {formatTokens(tokens, progress.usage.estimated)}
        </span>
      )}
    </span>
  );
}
