import { DELEGATION_BATCH_LIMIT, type BatonUIMessage, type NewTaskInput } from '@baton/schemas';
import { readNewTaskOutput, type ReadNewTaskOutput } from './outcome';
import { isNewTaskPart, type ToolCallState } from './parts';

type MessageLike = Pick<BatonUIMessage, 'id' | 'parts'>;

/** A `newTask` call of a message, with its batch (step) and its place in it. */
export interface NewTaskCall {
  toolCallId: string;
  state: ToolCallState;
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

/** A call's `attachments` as far as they are written (a call still being written may hold gaps). */
export function attachmentsOf(input: { attachments?: readonly unknown[] } | undefined): string[] | undefined {
  return input?.attachments?.filter((id): id is string => typeof id === 'string');
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
    if (!isNewTaskPart(part)) continue;
    // A call still being written has partial input: each field is read for what it is.
    const input: { subAgentId?: unknown; task?: unknown; context?: NewTaskInput['context']; attachments?: readonly unknown[] } = part.input ?? {};
    const preliminary = part.state === 'output-available' && part.preliminary === true;
    calls.push({
      toolCallId: part.toolCallId,
      state: part.state,
      input: {
        subAgentId: typeof input.subAgentId === 'string' ? input.subAgentId : undefined,
        task: typeof input.task === 'string' ? input.task : undefined,
        context: input.context,
        attachments: attachmentsOf(input),
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

/**
 * A call without its final outcome: no readable final output (a sub-agent's progress, or
 * progress stored as if it were the output, is not one) and no error.
 */
export function isUnfinishedCall(call: Pick<NewTaskCall, 'output' | 'state'>): boolean {
  return !call.output && call.state !== 'output-error';
}

/** A call waiting for a person to approve or reject it (AI SDK state `approval-requested`). */
export function isAwaitingApproval(call: Pick<NewTaskCall, 'state'>): boolean {
  return call.state === 'approval-requested';
}

/**
 * An unfinished call past its writing and its approval: its sub-agent works on it, or is about
 * to (the only calls with a sub-chat that may still be running).
 */
export function isCallAtWork(call: Pick<NewTaskCall, 'output' | 'state'>): boolean {
  return isUnfinishedCall(call) && !isAwaitingApproval(call) && call.state !== 'input-streaming';
}

/** The `newTask` calls of a message that have no final outcome yet (see isUnfinishedCall). */
export function unfinishedCalls(message: MessageLike): NewTaskCall[] {
  return newTaskCalls(message).filter(isUnfinishedCall);
}

/** The `newTask` calls of an answer waiting for a person's decision; none for a user message. */
export function awaitingApprovalCalls(message: (MessageLike & Pick<BatonUIMessage, 'role'>) | undefined): NewTaskCall[] {
  if (!message || message.role !== 'assistant') return [];
  return newTaskCalls(message).filter(isAwaitingApproval);
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
