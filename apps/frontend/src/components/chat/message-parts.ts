import { isNewTaskPart, type NewTaskPart } from '@baton/delegation';
import type { BatonUIMessage, BatonUIPart, RunErrorData } from '@baton/schemas';
import { NOTE_TOOL, RUN_ERROR_PART, runErrorDataSchema, TASK_RESULT_TOOL } from '@baton/schemas';
import { getToolName, isToolUIPart, type ChatStatus, type DynamicToolUIPart, type FileUIPart, type ToolUIPart } from 'ai';

/*
 * Pure helpers that decide what a transcript shows of AI SDK UI messages. No React here,
 * so the rules can be unit-tested and reused by every view of a conversation.
 */

/** What the transcript shows of one message part, in order. */
export type TaskResultPart = Extract<BatonUIPart, { type: `tool-${typeof TASK_RESULT_TOOL}` }>;

export type PartView =
  | { kind: 'text'; text: string }
  /** `streaming` while the model is still thinking; `thinkingMs` as the server timed it (absent on older answers). */
  | { kind: 'reasoning'; text: string; streaming: boolean; thinkingMs?: number }
  | { kind: 'delegation'; part: NewTaskPart }
  | { kind: 'task-result'; part: TaskResultPart }
  | { kind: 'tool'; name: string; part: ToolUIPart | DynamicToolUIPart }
  /** A person's message to a running sub-agent, where the sub-agent received it. */
  | { kind: 'steering'; id: string; text: string; files: FileUIPart[] };

/**
 * Text, reasoning and tool calls of a message; step boundaries, sources, files and data
 * parts are left out (Baton's agents do not produce them yet).
 */
export function partViews(message: Pick<BatonUIMessage, 'parts'>): PartView[] {
  return message.parts.flatMap((part): PartView[] => {
    if (part.type === 'text') return part.text.trim() ? [{ kind: 'text', text: part.text }] : [];
    if (part.type === 'reasoning') {
      // Shown from the first moment a model thinks, even before its first words of it arrive.
      if (!part.text.trim() && part.state !== 'streaming') return [];
      const thinkingMs = thinkingMsOf(part.providerMetadata);
      return [{ kind: 'reasoning', text: part.text, streaming: part.state === 'streaming', ...(thinkingMs === undefined ? {} : { thinkingMs }) }];
    }
    if (part.type === 'steering-message') {
      return [{ kind: 'steering', id: part.id, text: steeringText(part.parts), files: part.parts.filter((p) => p.type === 'file') }];
    }
    if (!isToolUIPart(part)) return [];
    const name = getToolName(part);
    if (isNewTaskPart(part)) return [{ kind: 'delegation', part }];
    if (part.type === `tool-${TASK_RESULT_TOOL}`) return [{ kind: 'task-result', part }];
    return [{ kind: 'tool', name, part }];
  });
}

/** The server's timing of a thinking block (apps/backend/src/agent/model-reasoning.ts). */
function thinkingMsOf(metadata: unknown): number | undefined {
  const value = (metadata as { baton?: { thinkingMs?: unknown } } | undefined)?.baton?.thinkingMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * A run of a sub-agent's note-taking steps, shown as one collapsed line ("12 notes"):
 * its notes are in the sub-chat's Notes list too, and a long run would otherwise put every
 * step on the page (and in the Tab order) and make each streamed token re-render them all.
 */
export interface NoteGroupView {
  kind: 'note-group';
  /** The steps' text and note calls, in order: what the group shows when opened. */
  views: PartView[];
  notes: number;
  /** The newest note's text (while it streams, as far as it has arrived). */
  latest: string;
}

export type TranscriptItem = PartView | NoteGroupView;

/** Fewer note steps than this in a row stay inline: a note or two reads fine as it is. */
export const NOTE_GROUP_MIN = 2;

const isNoteCall = (view: PartView | undefined): view is Extract<PartView, { kind: 'tool' }> => view?.kind === 'tool' && view.name === NOTE_TOOL;

/**
 * Folds consecutive note steps — a note call, with the text its step wrote just before it —
 * into one group once there are NOTE_GROUP_MIN of them in a row. Text not followed by a
 * note (the step being written, the final answer) and every other part stay as they are.
 */
export function groupNoteSteps(views: PartView[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  let run: PartView[] = [];
  let notes = 0;
  const flush = () => {
    if (notes >= NOTE_GROUP_MIN) items.push({ kind: 'note-group', views: run, notes, latest: noteText([...run].reverse().find(isNoteCall)) });
    else items.push(...run);
    run = [];
    notes = 0;
  };
  for (let i = 0; i < views.length; i++) {
    const view = views[i]!;
    if (isNoteCall(view)) {
      run.push(view);
      notes++;
    } else if (view.kind === 'text' && isNoteCall(views[i + 1])) {
      run.push(view, views[i + 1]!);
      notes++;
      i++;
    } else {
      flush();
      items.push(view);
    }
  }
  flush();
  return items;
}

function noteText(view: PartView | undefined): string {
  const input = view?.kind === 'tool' ? (view.part.input as { text?: unknown } | undefined) : undefined;
  return typeof input?.text === 'string' ? input.text : '';
}

const steeringText = (parts: { type: string; text?: string }[]) => parts.flatMap((p) => (p.type === 'text' && p.text ? [p.text] : [])).join('\n');

/** The ids of the steering messages a (sub-agent's) transcript shows as delivered. */
export function deliveredSteeringIds(messages: Pick<BatonUIMessage, 'parts'>[]): Set<string> {
  return new Set(messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'steering-message' ? [p.id] : []))));
}

/** Why the answer failed or was cut off, as the server stored it in the message (a `data-run-error` part). */
export function runErrorOf(message: Pick<BatonUIMessage, 'parts'>): RunErrorData | undefined {
  const part = message.parts.find((p) => p.type === RUN_ERROR_PART);
  const parsed = runErrorDataSchema.safeParse(part && 'data' in part ? part.data : undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The answer's text as the user reads it: what "Copy" puts on the clipboard. */
export function readableText(message: Pick<BatonUIMessage, 'parts'>): string {
  return message.parts.flatMap((part) => (part.type === 'text' && part.text.trim() ? [part.text.trim()] : [])).join('\n\n');
}

/** A tool call whose output is in: once all of a step's calls are, the model is asked again. */
const hasOutput = (view: PartView) => 'part' in view && (view.part.state === 'output-available' || view.part.state === 'output-error');

/**
 * While the agent is answering but its model shows nothing new — nothing of the answer yet,
 * or a step's tool calls have their outputs and the model, asked again, has not said a
 * word — a key for that silence (the same for as long as it lasts, a new one for the next);
 * undefined while something is visibly coming. A reasoning model can be silent for minutes:
 * the chat shows "Thinking…" and for how long.
 */
export function silentPhase(messages: BatonUIMessage[], status: ChatStatus | undefined): string | undefined {
  if (status !== 'submitted' && status !== 'streaming') return undefined;
  const last = messages.at(-1);
  const views = last?.role === 'assistant' ? partViews(last) : [];
  // An answer with nothing visible yet counts as no answer, so its silence began with the request.
  if (views.length === 0) {
    const before = last?.role === 'assistant' ? messages.at(-2) : last;
    return `after:${before?.id ?? ''}`;
  }
  const lastView = views.at(-1)!;
  if (status === 'streaming' && !hasOutput(lastView)) return undefined;
  return `${last!.id}:${views.length}`;
}

/**
 * The last message is the user's and no answer is coming: the answer failed before
 * anything was stored (e.g. a provider error), so the UI offers to ask again.
 */
export function isUnanswered(messages: BatonUIMessage[], status: ChatStatus | undefined): boolean {
  return (status === undefined || status === 'ready') && messages.at(-1)?.role === 'user';
}
