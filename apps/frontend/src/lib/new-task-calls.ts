import { DELEGATION_BATCH_LIMIT, NEW_TASK_TOOL, newTaskOutputSchema, type NewTaskOutput } from '@baton/schemas';
import type { UIMessage } from 'ai';

/** A parent's `newTask` call as the delegation UI needs it. */
export interface NewTaskCall {
  toolCallId: string;
  state: string;
  subAgentId: string;
  task: string;
  /** The calls of one step run together (one modal, one tab each): `<message id>:<step>`. */
  batchId: string;
  /** Position among the `newTask` calls of its step; from DELEGATION_BATCH_LIMIT on it does not run. */
  indexInStep: number;
  output?: NewTaskOutput;
  errorText?: string;
}

type LoosePart = { type: string; toolCallId?: string; state?: string; input?: unknown; output?: unknown; errorText?: unknown };

const NEW_TASK_PART = `tool-${NEW_TASK_TOOL}`;

export function isNewTaskPart(part: { type: string }): boolean {
  return part.type === NEW_TASK_PART;
}

/** The `newTask` calls of one message, with their batch (step) and place in it. */
export function newTaskCalls(message: UIMessage): NewTaskCall[] {
  const calls: NewTaskCall[] = [];
  let step = 0;
  let indexInStep = 0;
  for (const part of message.parts as LoosePart[]) {
    if (part.type === 'step-start') {
      step++;
      indexInStep = 0;
      continue;
    }
    if (part.type !== NEW_TASK_PART || !part.toolCallId) continue;
    const input = (part.input ?? {}) as { subAgentId?: unknown; task?: unknown };
    const output = newTaskOutputSchema.safeParse(part.output);
    calls.push({
      toolCallId: part.toolCallId,
      state: part.state ?? 'input-streaming',
      subAgentId: typeof input.subAgentId === 'string' ? input.subAgentId : '',
      task: typeof input.task === 'string' ? input.task : '',
      batchId: `${message.id}:${step}`,
      indexInStep: indexInStep++,
      output: output.success ? output.data : undefined,
      errorText: typeof part.errorText === 'string' ? part.errorText : undefined,
    });
  }
  return calls;
}

export function isBeyondBatchLimit(call: Pick<NewTaskCall, 'indexInStep'>): boolean {
  return call.indexInStep >= DELEGATION_BATCH_LIMIT;
}

// Same wording as the server-side flow: one home, in the shared contract.
export { BATCH_LIMIT_RESULT, CANCELLED_RESULT } from '@baton/schemas';

/**
 * Newest message still waiting for sub-agents: its complete `newTask` calls without an
 * output. A call still being written is not counted: it has no delegation yet that could
 * be opened or cancelled, and it is the answer itself that is still running.
 */
export function pendingNewTaskCount(messages: UIMessage[]): number {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant') return 0;
  return newTaskCalls(last).filter((c) => c.state === 'input-available').length;
}
