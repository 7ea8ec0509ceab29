import { CANCELLED_RESULT, INTERRUPTED_SUB_AGENT_RESULT, partialResultLead } from '@baton/delegation';
import { TASK_RESULT_TOOL, taskResultInputSchema, type BatonUIMessage, type DelegationOutcome, type SubChatNote } from '@baton/schemas';

/** How a delegated task ended: the outcome the parent's model and the UI read, and the result text. */
export interface SubChatEnd {
  outcome: DelegationOutcome;
  result: string;
}

/** Why a sub-agent stopped short and is asked for its result so far (never on cancel or interrupt). */
export type PartialReason = keyof typeof partialResultLead;

export interface RunEndFacts {
  status: 'succeeded' | 'failed' | 'cancelled' | 'interrupted';
  error?: string;
  /** The run stopped because its token budget was used up. */
  budgetExhausted?: boolean;
  /** It reached the sub-agent step limit. */
  stepLimit?: boolean;
  /** Its model refused the tools a sub-agent needs: nothing was done, and asking again cannot help. */
  toolsRefused?: boolean;
}

function reportedResult(message: BatonUIMessage | undefined): SubChatEnd | undefined {
  const call = message?.parts.find((p) => p.type === `tool-${TASK_RESULT_TOOL}` && p.state !== 'input-streaming');
  const parsed = taskResultInputSchema.safeParse(call && 'input' in call ? call.input : undefined);
  if (!parsed.success) return undefined;
  return { outcome: parsed.data.status === 'success' ? 'success' : 'error', result: parsed.data.result };
}

/** Whether the sub-agent must be asked for a partial result: it did not report, and stopped on a limit or an error. */
export function partialReason(message: BatonUIMessage | undefined, end: RunEndFacts): PartialReason | undefined {
  if (reportedResult(message) || end.status === 'cancelled' || end.status === 'interrupted' || end.toolsRefused) return undefined;
  if (end.status === 'failed') return 'error';
  if (end.budgetExhausted) return 'budget_exhausted';
  if (end.stepLimit) return 'step_limit';
  return undefined;
}

/** The partial result the parent receives: why, what the sub-agent said when asked, and its notes. */
export function partialResult(reason: PartialReason, text: string, notes: readonly SubChatNote[], error?: string): SubChatEnd {
  const said = text.trim() || (error ? `(no answer; the error was: ${error})` : '(no answer)');
  const noted = notes.length ? `\n\nNotes:\n${notes.map((n) => `- ${n.text}`).join('\n')}` : '';
  return { outcome: reason, result: `${partialResultLead[reason]}\n\n${said}${noted}` };
}

/** How a sub-chat's run ended, from its last message: `taskResult` called, or why not. */
export function subChatEnd(message: BatonUIMessage | undefined, end: RunEndFacts): SubChatEnd {
  const reported = reportedResult(message);
  if (reported) return reported;
  if (end.status === 'cancelled') return { outcome: 'cancelled', result: CANCELLED_RESULT };
  if (end.status === 'interrupted') return { outcome: 'interrupted', result: INTERRUPTED_SUB_AGENT_RESULT };
  if (end.error) return { outcome: 'error', result: `The sub-agent failed: ${end.error}` };
  const lastText = (message?.parts ?? [])
    .flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('\n')
    .trim();
  return { outcome: 'error', result: `The sub-agent ended without calling ${TASK_RESULT_TOOL}.${lastText ? ` Its last words: ${lastText}` : ''}` };
}
