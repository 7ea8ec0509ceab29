import { isToolCallPart, withCallState, type ToolCallPart } from '@baton/delegation';
import { NEW_TASK_TOOL, NOTE_TOOL, TASK_RESULT_TOOL, type BatonUIMessage, type BatonUIPart } from '@baton/schemas';
import { AppError, invalidRequest } from '../errors';

/** Baton's own tool names: an API caller's tool may not take one (nor one of the agent's tools). */
export const RESERVED_TOOL_NAMES: readonly string[] = [NEW_TASK_TOOL, TASK_RESULT_TOOL, NOTE_TOOL];

/** The output an API caller sent for one of its tools' calls (a `tool` message); `at` is where the request has it. */
export interface ApiToolOutput {
  toolCallId: string;
  output: string;
  at: number;
}

export const toolNameOf = (part: ToolCallPart) => part.type.slice('tool-'.length);

/**
 * A call that waits for the API client: complete, without output, and none of Baton's own
 * (the browser delivers a pending `newTask`, a sub-agent's `taskResult` ends its chat). The
 * agent's server tools always end with an output or an error, so what is left is a client tool's call.
 */
export function isPendingClientCall(part: BatonUIPart): part is ToolCallPart {
  return isToolCallPart(part) && part.state === 'input-available' && !RESERVED_TOOL_NAMES.includes(toolNameOf(part));
}

export function pendingClientCalls(message: BatonUIMessage | undefined, fromPart = 0): ToolCallPart[] {
  if (message?.role !== 'assistant') return [];
  return message.parts.slice(fromPart).filter(isPendingClientCall);
}

/**
 * The chat's last answer with the caller's outputs given to its pending client calls: every
 * pending call needs exactly one, and nothing else may be answered. The server's copy of the
 * message stays authoritative; only outputs are added.
 */
export function applyApiToolOutputs(last: BatonUIMessage | undefined, outputs: readonly ApiToolOutput[]): BatonUIMessage {
  const pending = pendingClientCalls(last);
  const param = (o: ApiToolOutput) => `messages[${o.at}].tool_call_id`;
  if (!last || pending.length === 0) {
    const answered = last?.parts.some((p) => isToolCallPart(p) && outputs.some((o) => o.toolCallId === p.toolCallId));
    if (answered)
      throw new AppError(409, 'conflict', 'these tool outputs were already delivered: the answer went on (send a user message to continue the chat)');
    throw invalidRequest(`${param(outputs[0]!)}: the chat's last answer waits for no tool output; to continue the chat, end with a user message`);
  }
  const seen = new Set<string>();
  for (const o of outputs) {
    if (seen.has(o.toolCallId)) throw invalidRequest(`${param(o)}: call "${o.toolCallId}" is answered twice`);
    seen.add(o.toolCallId);
    if (!pending.some((p) => p.toolCallId === o.toolCallId)) {
      const waiting = pending.map((p) => `"${p.toolCallId}"`).join(', ');
      throw invalidRequest(`${param(o)}: "${o.toolCallId}" is not a call the chat's last answer waits for (it waits for ${waiting})`);
    }
  }
  const missing = pending.find((p) => !seen.has(p.toolCallId));
  if (missing) {
    throw invalidRequest(
      `messages: call "${missing.toolCallId}" (${toolNameOf(missing)}) has no tool message: send one tool message per call of the last answer`,
    );
  }
  const parts = last.parts.map((part) => {
    if (!isPendingClientCall(part)) return part;
    const output = outputs.find((o) => o.toolCallId === part.toolCallId)!.output;
    return withCallState(part, { state: 'output-available', output });
  });
  return { ...last, parts };
}

const NO_OUTPUT = 'No output: the conversation went on without this call’s result.';

/**
 * A new user message after an answer whose client tool calls were never answered: they get an
 * error output, so the chat shows them ended and the model reads why (undefined: nothing to settle).
 */
export function settlePendingClientCalls(last: BatonUIMessage | undefined): BatonUIMessage | undefined {
  if (pendingClientCalls(last).length === 0) return undefined;
  const parts = last!.parts.map((part) => (isPendingClientCall(part) ? withCallState(part, { state: 'output-error', errorText: NO_OUTPUT }) : part));
  return { ...last!, parts };
}
