import { NEW_TASK_TOOL, type BatonMessageMetadata, type BatonUIMessage, type BatonUIPart } from '@baton/schemas';

// Messages in tests: the ones a test stores itself are BatonUIMessage, typed like the
// backend's; the ones a test reads back from the API are JSON, not checked against that
// type, so their parts are read through StoredPart.

/**
 * A message part as the API returns it: the fields any part type may have, all optional —
 * a test reads those its part's type has (a `tool-*` part's state and output, a text part's
 * text, a steering message's own parts).
 */
export interface StoredPart {
  type: string;
  id?: string;
  text?: string;
  toolCallId?: string;
  state?: string;
  input?: any;
  output?: any;
  errorText?: string;
  preliminary?: boolean;
  approval?: any;
  data?: any;
  parts?: { type: string; text: string }[];
}

/** A tool call part (`tool-*`) as the API returns it: it always has its call id and state. */
export interface StoredToolCall extends StoredPart {
  toolCallId: string;
  state: string;
}

/** A message as the API returns it. */
export interface StoredMessage {
  id: string;
  role: string;
  parts: StoredPart[];
  metadata?: any;
}

const NEW_TASK_PART = `tool-${NEW_TASK_TOOL}`;

/** A message's `newTask` calls, in order. */
export function newTaskParts(message: { parts: StoredPart[] } | undefined): StoredToolCall[] {
  return (message?.parts ?? []).filter((p): p is StoredToolCall => p.type === NEW_TASK_PART);
}

/** The text of a message's text parts, joined by `separator` (a line break, or nothing to compare with what was streamed). */
export function partsText(parts: readonly StoredPart[] | undefined, separator = '\n'): string {
  return (parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text ?? ''] : [])).join(separator);
}

/** A message of one text part, to store. */
export function textMessage(id: string, role: 'user' | 'assistant', text: string, metadata?: BatonMessageMetadata): BatonUIMessage {
  return { id, role, parts: [{ type: 'text', text }], ...(metadata ? { metadata } : {}) };
}

/**
 * Parts a test writes into the message table as they are, whatever their shape (a cut-off
 * answer's snapshot, a call in the middle of its states): the column is typed as the
 * message's parts, and such a test checks how the backend reads what it finds there.
 */
export function storedParts(parts: readonly object[]): BatonUIPart[] {
  return parts as BatonUIPart[];
}
