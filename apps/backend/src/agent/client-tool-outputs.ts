import { isNewTaskPart, isToolCallPart, readNewTaskOutput, withCallState, type NewTaskPart } from '@baton/delegation';
import { newTaskOutputSchema, type BatonUIMessage, type UIMessageInput } from '@baton/schemas';
import { AppError, invalidRequest } from '../errors';

export type ClientOutputs =
  /** New outputs for pending calls: the merged message the model continues. */
  | { kind: 'new'; merged: BatonUIMessage; answered: NewTaskPart[] }
  /** Every call already had its output (another tab sent the same continuation first). */
  | { kind: 'already-answered' };

/**
 * Compares what the client sent with the stored assistant message. The only change a
 * client may make is an output for a pending client-side tool call; the result is the
 * stored message with those outputs applied, so the server's copy stays authoritative.
 */
export function applyClientToolOutputs(stored: BatonUIMessage, incoming: UIMessageInput): ClientOutputs {
  const storedParts = stored.parts;
  const incomingParts = incoming.parts;
  // A stored message longer than the client's has been continued already (by another tab).
  const continuedElsewhere = storedParts.length > incomingParts.length;
  if (storedParts.length < incomingParts.length) {
    throw invalidRequest('message: an assistant message can only receive tool outputs; its parts cannot be added or removed');
  }
  const answered: NewTaskPart[] = [];
  let alreadyAnswered = 0;
  const merged = storedParts.map((part, i) => {
    const next = incomingParts[i];
    if (!next) return part;
    const toolCallId = isToolCallPart(part) ? part.toolCallId : undefined;
    if (part.type !== next.type || toolCallId !== next.toolCallId) {
      throw invalidRequest(`message.parts[${i}]: parts cannot be changed, only tool outputs added`);
    }
    if (!isNewTaskPart(part)) return part;
    if (part.state === 'approval-requested' && (next.state === 'output-available' || next.state === 'output-error')) {
      throw new AppError(409, 'conflict', `message: newTask call "${part.toolCallId}" is waiting for approval: approve or reject it first`);
    }
    // An approved call (AI SDK `approval-responded`) is pending like any call without output.
    if (part.state !== 'input-available' && part.state !== 'approval-responded') {
      if (next.state === 'output-available' || next.state === 'output-error') alreadyAnswered++;
      return part;
    }
    if (next.state === 'input-available' || next.state === 'approval-requested' || next.state === 'approval-responded') return part;
    if (next.state === 'output-available') {
      // The whole output, or the design's contract `{ result, status, subChatId }`, which is
      // completed from `status`: the server decides the outcome once the sub-chat has ended (ADR 0014).
      const output = readNewTaskOutput(next.output);
      if (!output) {
        const issues = newTaskOutputSchema.safeParse(next.output).error?.issues ?? [];
        throw invalidRequest(
          `message.parts[${i}].output: must be { result, status: "success" | "error", subChatId } (${issues[0]?.message ?? 'invalid'})`,
          issues,
        );
      }
      const updated = withCallState(part, { state: 'output-available', output });
      answered.push(updated);
      return updated;
    }
    if (next.state === 'output-error' && typeof next.errorText === 'string') {
      const updated = withCallState(part, { state: 'output-error', errorText: next.errorText });
      answered.push(updated);
      return updated;
    }
    throw invalidRequest(`message.parts[${i}]: unsupported tool state "${String(next.state)}"`);
  });
  if (answered.length === 0 && alreadyAnswered > 0) return { kind: 'already-answered' };
  if (continuedElsewhere) {
    throw invalidRequest('message: an assistant message can only receive tool outputs; its parts cannot be added or removed');
  }
  if (answered.length === 0) throw invalidRequest('message: no new tool outputs; to continue, send a user message');
  const pending = merged
    .filter(isNewTaskPart)
    .find((p) => p.state === 'input-available' || p.state === 'approval-requested' || p.state === 'approval-responded');
  if (pending) throw invalidRequest(`message: newTask call "${pending.toolCallId}" still has no output`);
  return { kind: 'new', merged: { ...stored, parts: merged }, answered };
}
