import type { RunErrorData } from '@baton/schemas';
import { NEW_TASK_TOOL, RUN_ERROR_PART, runErrorDataSchema, TASK_RESULT_TOOL } from '@baton/schemas';
import { getToolName, isToolUIPart, type ChatStatus, type DynamicToolUIPart, type ToolUIPart, type UIMessage } from 'ai';

/*
 * Pure helpers that decide what a transcript shows of AI SDK UI messages. No React here,
 * so the rules can be unit-tested and reused by every view of a conversation.
 */

/** What the transcript shows of one message part, in order. */
export type PartView =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'delegation'; part: ToolUIPart }
  | { kind: 'task-result'; part: ToolUIPart }
  | { kind: 'tool'; name: string; part: ToolUIPart | DynamicToolUIPart };

/**
 * Text, reasoning and tool calls of a message; step boundaries, sources, files and data
 * parts are left out (Baton's agents do not produce them yet).
 */
export function partViews(message: Pick<UIMessage, 'parts'>): PartView[] {
  return message.parts.flatMap((part): PartView[] => {
    if (part.type === 'text') return part.text.trim() ? [{ kind: 'text', text: part.text }] : [];
    if (part.type === 'reasoning') return part.text.trim() ? [{ kind: 'reasoning', text: part.text }] : [];
    if (!isToolUIPart(part)) return [];
    const name = getToolName(part);
    if (part.type === `tool-${NEW_TASK_TOOL}`) return [{ kind: 'delegation', part: part as ToolUIPart }];
    if (part.type === `tool-${TASK_RESULT_TOOL}`) return [{ kind: 'task-result', part: part as ToolUIPart }];
    return [{ kind: 'tool', name, part }];
  });
}

/** Why the answer failed or was cut off, as the server stored it in the message (a `data-run-error` part). */
export function runErrorOf(message: Pick<UIMessage, 'parts'>): RunErrorData | undefined {
  const part = message.parts.find((p) => p.type === RUN_ERROR_PART) as { data?: unknown } | undefined;
  const parsed = runErrorDataSchema.safeParse(part?.data);
  return parsed.success ? parsed.data : undefined;
}

/** The answer's text as the user reads it: what "Copy" puts on the clipboard. */
export function messageText(message: Pick<UIMessage, 'parts'>): string {
  return message.parts.flatMap((part) => (part.type === 'text' && part.text.trim() ? [part.text.trim()] : [])).join('\n\n');
}

/**
 * True while the agent has been asked but nothing of its answer is visible yet: the
 * moment for a typing indicator.
 */
export function isAwaitingFirstOutput(messages: UIMessage[], status: ChatStatus | undefined): boolean {
  if (status === 'submitted') return true;
  if (status !== 'streaming') return false;
  const last = messages.at(-1);
  return !last || last.role !== 'assistant' || partViews(last).length === 0;
}

/**
 * The last message is the user's and no answer is coming: the answer failed before
 * anything was stored (e.g. a provider error), so the UI offers to ask again.
 */
export function isUnanswered(messages: UIMessage[], status: ChatStatus | undefined): boolean {
  return (status === undefined || status === 'ready') && messages.at(-1)?.role === 'user';
}
