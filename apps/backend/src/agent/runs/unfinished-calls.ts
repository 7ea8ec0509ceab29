import { hasFinalOutcome, isNewTaskPart, isToolCallPart, toNewTaskOutput, withCallState, type ToolCallPart } from '@baton/delegation';
import { INTERRUPTED_MESSAGE, RUN_ERROR_PART, type BatonUIMessage, type BatonUIPart, type NewTaskOutput, type RunErrorData } from '@baton/schemas';

/** What became of the sub-chat of a `newTask` call, when it has one. */
export interface CallSubChat {
  id: string;
  /** The output its call gets; undefined while the sub-chat still runs. */
  output?: NewTaskOutput;
}

const INTERRUPTED_CALL = 'Not finished: the answer was interrupted (a server restart or crash) before this call completed.';

/**
 * An answer that was cut off (the process stopped) can hold tool calls that will never
 * finish: a half-written input, a server tool that was running, a sub-agent's progress
 * report standing in for its result. Each gets a final output, so the conversation is
 * consistent and can go on; a `newTask` call whose sub-chat has ended gets that sub-chat's
 * result. In the browser flow a complete `newTask` call without output stays pending: the
 * browser still delivers it (from its sub-chat, or by starting one).
 */
export function settleUnfinishedCalls(message: BatonUIMessage, opts: { mode: 'client' | 'server'; subChats: Map<string, CallSubChat> }): BatonUIMessage {
  let changed = false;
  const parts = message.parts.map((part): BatonUIPart => {
    if (!isToolCallPart(part) || !part.toolCallId) return part;
    // Waiting for a person's decision is not unfinished: it survives the answer's end (approvals.ts).
    if (hasFinalOutcome(part) || part.state === 'approval-requested') return part;
    if (part.state === 'input-streaming') {
      changed = true;
      return withCallState(part, { state: 'output-error', input: part.input ?? {}, errorText: INTERRUPTED_CALL });
    }
    if (!isNewTaskPart(part)) {
      changed = true;
      return withCallState(part, { state: 'output-error', errorText: INTERRUPTED_CALL });
    }
    const subChat = opts.subChats.get(part.toolCallId);
    if (subChat?.output) {
      changed = true;
      return withOutput(part, subChat.output);
    }
    // An approved call is the browser's to run, like any call without output.
    if (opts.mode === 'client' && (part.state === 'input-available' || part.state === 'approval-responded')) return part;
    if (subChat) return part; // still running (its own run is settled separately)
    changed = true;
    return withOutput(part, toNewTaskOutput({ outcome: 'interrupted', result: INTERRUPTED_CALL, subChatId: null }));
  });
  return changed ? { ...message, parts } : message;
}

function withOutput<P extends ToolCallPart>(part: P, output: NewTaskOutput): P {
  return withCallState(part, { state: 'output-available', output }, ['preliminary', 'errorText']);
}

export function runErrorPart(data: RunErrorData): BatonUIPart {
  return { type: RUN_ERROR_PART, data };
}

export const interruptedError: RunErrorData = { code: 'interrupted', message: INTERRUPTED_MESSAGE };

/** Adds the run's error part to a stored message, once. */
export function withRunError(message: BatonUIMessage, data: RunErrorData): BatonUIMessage {
  if (message.parts.some((p) => p.type === RUN_ERROR_PART)) return message;
  return { ...message, parts: [...message.parts, runErrorPart(data)] };
}
