import { NEW_TASK_TOOL, parseFileUrl, type BatonUIPart } from '@baton/schemas';

// What a message's parts are, for code on both sides (the browser and the backend): narrowing
// predicates over BatonUIPart, so a caller reads a part's fields without a cast of its own.

/**
 * A tool call of a message: the AI SDK's `tool-<name>` part. Besides Baton's own tools an
 * answer holds MCP tools' calls, typed here as one of Baton's: read only what every tool
 * call has (toolCallId, state, input, output, errorText, preliminary).
 */
export type ToolCallPart = Extract<BatonUIPart, { type: `tool-${string}` }>;

/** A `newTask` call (delegating to a sub-agent), with its input and output typed. */
export type NewTaskPart = Extract<BatonUIPart, { type: `tool-${typeof NEW_TASK_TOOL}` }>;

export type ToolCallState = ToolCallPart['state'];

const NEW_TASK_PART = `tool-${NEW_TASK_TOOL}`;

export function isToolCallPart(part: BatonUIPart): part is ToolCallPart {
  return part.type.startsWith('tool-');
}

export function isNewTaskPart(part: BatonUIPart): part is NewTaskPart {
  return part.type === NEW_TASK_PART;
}

/** A file part (the AI SDK's `file` part): an upload or a file a tool stored. */
export type BatonFilePart = Extract<BatonUIPart, { type: 'file' }>;

/** A file part naming one of Baton's stored files (`fileUrl`): the message keeps the reference, the bytes are read at turn time. */
export function isBatonFilePart(part: BatonUIPart): part is BatonFilePart {
  return part.type === 'file' && parseFileUrl(part.url) !== undefined;
}

/** A call whose output or error is in; a preliminary output (a sub-agent's progress) counts too. */
export function hasOutputOrError(part: ToolCallPart): boolean {
  return part.state === 'output-available' || part.state === 'output-error';
}

/** A call that has ended: an error, or an output that is not a preliminary one (a sub-agent's progress). */
export function hasFinalOutcome(part: ToolCallPart): boolean {
  return part.state === 'output-error' || (part.state === 'output-available' && !part.preliminary);
}

/** What a state change sets on a tool call part; the fields named in `drop` are removed first. */
export interface ToolCallChange {
  state: ToolCallState;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: Record<string, unknown>;
  preliminary?: boolean;
}

type DroppableField = 'output' | 'errorText' | 'preliminary' | 'approval';

/**
 * The same call in another state, its other fields kept. The AI SDK types each state of a
 * tool part as its own variant, which a spread of a part cannot show TypeScript: this is the
 * one place that asserts the result is a part again.
 */
export function withCallState<P extends ToolCallPart>(part: P, change: ToolCallChange, drop: readonly DroppableField[] = []): P {
  const kept: Record<string, unknown> = { ...part };
  for (const field of drop) delete kept[field];
  return { ...kept, ...change } as P;
}
