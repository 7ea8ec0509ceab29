import { cutText, newTaskOutputSchema, taskStatusSchema, type DelegationOutcome, type NewTaskOutput, type TaskStatus, type TokenUsage } from '@baton/schemas';
import { truncationNote } from './wording';

export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** The design's original `status`, derived from the outcome: only a success is "success". */
export function statusOf(outcome: DelegationOutcome): TaskStatus {
  return outcome === 'success' ? 'success' : 'error';
}

/** A result cut to `maxChars` (with a note saying so), or the whole result. */
export function capResult(result: string, maxChars: number): { result: string; truncated: boolean } {
  if (result.length <= maxChars) return { result, truncated: false };
  const shown = cutText(result, maxChars);
  return { result: shown + truncationNote(shown.length, result.length), truncated: true };
}

/** The `newTask` output of a finished delegation, in both flows. */
export function toNewTaskOutput(end: {
  outcome: DelegationOutcome;
  result: string;
  subChatId: string | null;
  usage?: TokenUsage;
  maxResultChars?: number;
}): NewTaskOutput {
  const capped = end.maxResultChars === undefined ? { result: end.result, truncated: false } : capResult(end.result, end.maxResultChars);
  return {
    result: capped.result,
    status: statusOf(end.outcome),
    subChatId: end.subChatId,
    outcome: end.outcome,
    usage: end.usage ?? NO_USAGE,
    truncated: capped.truncated,
  };
}

/** A stored output as the current contract has it; outputs stored before `outcome` existed are upgraded. */
export type ReadNewTaskOutput = NewTaskOutput;

export function readNewTaskOutput(value: unknown): ReadNewTaskOutput | undefined {
  const current = newTaskOutputSchema.safeParse(value);
  if (current.success) return current.data;
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { result?: unknown; status?: unknown; subChatId?: unknown };
  const status = taskStatusSchema.safeParse(v.status);
  if (typeof v.result !== 'string' || !status.success) return undefined;
  return {
    result: v.result,
    status: status.data,
    subChatId: typeof v.subChatId === 'string' ? v.subChatId : null,
    outcome: status.data === 'success' ? 'success' : 'error',
    usage: NO_USAGE,
    truncated: false,
  };
}
