import { toNewTaskOutput } from '@baton/delegation';
import { INTERRUPTED_MESSAGE, NEW_TASK_TOOL, RUN_ERROR_PART, type NewTaskOutput, type RunErrorData } from '@baton/schemas';
import type { UIMessage } from 'ai';

type Part = { type: string; toolCallId?: string; state?: string; preliminary?: boolean; [key: string]: unknown };

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
export function settleUnfinishedCalls(message: UIMessage, opts: { mode: 'client' | 'server'; subChats: Map<string, CallSubChat> }): UIMessage {
  let changed = false;
  const parts = (message.parts as unknown as Part[]).map((part) => {
    if (!part.type.startsWith('tool-') || !part.toolCallId) return part;
    const isNewTask = part.type === `tool-${NEW_TASK_TOOL}`;
    const finished = part.state === 'output-error' || (part.state === 'output-available' && !part.preliminary);
    // Waiting for a person's decision is not unfinished: it survives the answer's end (approvals.ts).
    if (finished || part.state === 'approval-requested') return part;
    if (part.state === 'input-streaming') {
      changed = true;
      return { ...part, state: 'output-error', input: part.input ?? {}, errorText: INTERRUPTED_CALL };
    }
    if (!isNewTask) {
      changed = true;
      return { ...part, state: 'output-error', errorText: INTERRUPTED_CALL };
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
  return changed ? { ...message, parts: parts as unknown as UIMessage['parts'] } : message;
}

function withOutput(part: Part, output: NewTaskOutput): Part {
  const { preliminary: _preliminary, errorText: _errorText, ...rest } = part;
  return { ...rest, state: 'output-available', output };
}

export function runErrorPart(data: RunErrorData) {
  return { type: RUN_ERROR_PART, data } as const;
}

export const interruptedError: RunErrorData = { code: 'interrupted', message: INTERRUPTED_MESSAGE };

/** Adds the run's error part to a stored message, once. */
export function withRunError(message: UIMessage, data: RunErrorData): UIMessage {
  const parts = message.parts as unknown as Part[];
  if (parts.some((p) => p.type === RUN_ERROR_PART)) return message;
  return { ...message, parts: [...message.parts, runErrorPart(data) as unknown as UIMessage['parts'][number]] };
}
