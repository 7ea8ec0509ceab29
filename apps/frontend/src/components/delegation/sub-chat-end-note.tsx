'use client';

import { TASK_RESULT_TOOL, taskResultInputSchema, type BatonUIMessage } from '@baton/schemas';
import { isFinished, type Delegation } from '@/stores/delegation-store';
import { STATUS_LOOKS, StatusIcon } from './delegation-status';
import { ResultText } from './result-text';

/** The sub-agent handed its result back itself (a complete `taskResult` call): its card shows it. */
export function reportedInTranscript(messages: BatonUIMessage[]): boolean {
  return messages.some((m) => m.parts.some((p) => p.type === `tool-${TASK_RESULT_TOOL}` && 'input' in p && taskResultInputSchema.safeParse(p.input).success));
}

/**
 * How a sub-agent's delegation ended, under its transcript, when the transcript does not
 * say it already: cancelled, interrupted, a limit or a failure without a `taskResult`
 * (then the result is Baton's, e.g. "Cancelled by user" or a partial result). A result
 * the sub-agent handed back is its card in the transcript, shown once, formatted.
 */
export function SubChatEndNote({ delegation, messages }: { delegation: Delegation; messages: BatonUIMessage[] }) {
  const status = delegation.status;
  if (!isFinished(status) || status === 'success' || !delegation.result) return null;
  if (reportedInTranscript(messages)) return null;
  const look = STATUS_LOOKS[status];
  return (
    <div role="note" aria-label="How it ended" className={`flex items-start gap-2 rounded-lg px-3 py-2 text-sm ${look.pill}`}>
      <StatusIcon status={status} className="mt-0.5 h-4 w-4" />
      <div className="min-w-0 flex-1">
        <p className={`font-medium ${look.tone}`}>{look.label}</p>
        {/* Baton's wording or a partial result: markdown like any result, never raw text. */}
        {delegation.result !== look.label && <ResultText result={delegation.result} />}
      </div>
    </div>
  );
}
