import { DELEGATION_BATCH_LIMIT, NEW_TASK_TOOL, type BatonUIMessage, type NewTaskInput } from '@baton/schemas';
import { readNewTaskOutput, type ReadNewTaskOutput } from './outcome';

type MessageLike = Pick<BatonUIMessage, 'id' | 'parts'>;

/** A `newTask` call of a message, with its batch (step) and its place in it. */
export interface NewTaskCall {
  toolCallId: string;
  state: string;
  input: Partial<NewTaskInput>;
  /** The calls of one step run together: `<message id>:<step>`. */
  batchId: string;
  /** Position among the `newTask` calls of its step; from DELEGATION_BATCH_LIMIT on it does not run. */
  indexInStep: number;
  /** Its final output (older stored outputs upgraded), if it has one. */
  output?: ReadNewTaskOutput;
  /** A preliminary output (the server flow's progress) is not a final one. */
  preliminary: boolean;
  errorText?: string;
}

const NEW_TASK_PART = `tool-${NEW_TASK_TOOL}`;

export function isNewTaskPart(part: { type: string }): boolean {
  return part.type === NEW_TASK_PART;
}

/** The `newTask` calls of one message, with their batch (the step, between `step-start` parts) and place in it. */
export function newTaskCalls(message: MessageLike): NewTaskCall[] {
  const calls: NewTaskCall[] = [];
  let step = 0;
  let indexInStep = 0;
  for (const part of message.parts) {
    if (part.type === 'step-start') {
      step++;
      indexInStep = 0;
      continue;
    }
    if (part.type !== NEW_TASK_PART) continue;
    const input = (part.input ?? {}) as Partial<NewTaskInput>;
    const preliminary = part.state === 'output-available' && part.preliminary === true;
    calls.push({
      toolCallId: part.toolCallId,
      state: part.state,
      input: {
        subAgentId: typeof input.subAgentId === 'string' ? input.subAgentId : undefined,
        task: typeof input.task === 'string' ? input.task : undefined,
        context: input.context,
      },
      batchId: `${message.id}:${step}`,
      indexInStep: indexInStep++,
      output: part.state === 'output-available' && !preliminary ? readNewTaskOutput(part.output) : undefined,
      preliminary,
      errorText: part.state === 'output-error' ? part.errorText : undefined,
    });
  }
  return calls;
}

export function isBeyondBatchLimit(call: Pick<NewTaskCall, 'indexInStep'>): boolean {
  return call.indexInStep >= DELEGATION_BATCH_LIMIT;
}

/** Model steps of the assistant messages: one `step-start` part per step. */
export function countSteps(messages: readonly Pick<BatonUIMessage, 'role' | 'parts'>[]): number {
  let steps = 0;
  for (const m of messages) if (m.role === 'assistant') for (const p of m.parts) if (p.type === 'step-start') steps++;
  return steps;
}
