'use client';

import { taskResultInputSchema } from '@baton/schemas';
import type { TaskResultPart } from '../chat/message-parts';
import { Flag } from 'lucide-react';
import { StatusBadge } from './delegation-status';
import { ResultText } from './result-text';

/**
 * A sub-agent's `taskResult` call in a sub-chat transcript: the result it handed back to
 * the agent that delegated the task, and whether it says it succeeded. A call cut off
 * while its input was still being written (the sub-agent was cancelled or stopped) was
 * never handed back: it shows nothing, and the panel says how the delegation ended.
 */
export function TaskResultBlock({ part, streaming }: { part: TaskResultPart; streaming: boolean }) {
  const parsed = taskResultInputSchema.safeParse(part.input);
  if (part.state === 'input-streaming' && !streaming) return null;
  // While the call's input streams in, show what has arrived so far.
  const result = parsed.success ? parsed.data.result : typeof part.input?.result === 'string' ? part.input.result : '';
  const status = parsed.success ? parsed.data.status : undefined;
  return (
    <div
      role="group"
      aria-label="Task result"
      className="w-full rounded-xl border border-neutral-200 bg-neutral-50/60 text-sm dark:border-neutral-800 dark:bg-neutral-900/40"
    >
      <div className="flex flex-wrap items-center gap-2 px-3 pt-2.5">
        <Flag className="h-4 w-4 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
        <span className="font-medium text-neutral-900 dark:text-neutral-100">{status ? 'Result handed back' : 'Reporting the result…'}</span>
        {status && <StatusBadge status={status} />}
      </div>
      <div className="px-3 pt-1.5 pb-2.5">{result ? <ResultText result={result} /> : <span className="text-neutral-500">…</span>}</div>
    </div>
  );
}
