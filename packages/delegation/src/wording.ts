import { DELEGATION_BATCH_LIMIT, GENERAL_PURPOSE_ID, NEW_TASK_TOOL, NOTE_TOOL, SUB_AGENT_MAX_STEPS, TASK_RESULT_TOOL } from '@baton/schemas';

// Every text of the delegation rules that a model or a person reads, in one place: the
// browser flow and the server flow say exactly the same thing.

/** The result a `newTask` call past the batch limit gets. */
export const BATCH_LIMIT_RESULT = `Not run: at most ${DELEGATION_BATCH_LIMIT} sub-agent tasks can run in parallel in one step. Delegate the rest in a later step.`;
/** The result of a sub-agent the user cancelled. */
export const CANCELLED_RESULT = 'Cancelled by user';
/** The result of a sub-agent whose server stopped (restart or crash) before it reported. */
export const INTERRUPTED_SUB_AGENT_RESULT =
  'The sub-agent was interrupted: the server stopped (a restart or a crash) before it reported a result. Try the task again.';

/** A `newTask` call naming an agent the caller may not delegate to (unknown, not its sub-agent, on its own chain, or too deep). */
export function notASubAgentResult(subAgentId: string, delegator: string, available: { id: string; name: string }[]): string {
  const list = available.length
    ? `Available sub-agents: ${available.map((a) => `${a.name} (${a.id})`).join(', ')}.`
    : `${delegator} has no sub-agents it may use here.`;
  return `Not run: "${subAgentId}" is not a sub-agent ${delegator} can delegate to. ${list}`;
}

/** Appended to a result cut to the root agent's `maxResultChars`. */
export function truncationNote(shownChars: number, totalChars: number): string {
  return `\n\n[Result truncated: ${shownChars.toLocaleString('en-US')} of ${totalChars.toLocaleString('en-US')} characters shown. The whole result is in the sub-chat.]`;
}

/** The general-purpose sub-agent, as `newTask` lists it (the demo model parses this line shape too). */
export const GENERAL_PURPOSE_LISTING = {
  id: GENERAL_PURPOSE_ID,
  name: GENERAL_PURPOSE_ID,
  description: 'yourself, with your own instructions and tools, in a fresh context: for a self-contained piece of work that should not fill this conversation',
};

/** The system prompt of the model call that writes the `summary` context for a sub-agent. */
export const SUMMARY_SYSTEM_PROMPT =
  'Summarise the conversation below for an assistant who will work on a task from it and cannot see it. ' +
  'Keep the facts, decisions, constraints and open questions that matter; at most 200 words; no preamble.';

/** The last request to a sub-agent that reached a limit or failed: its result so far, without tools. */
export const PARTIAL_RESULT_REQUEST =
  'Stop working now: you have reached your limit. Report your result so far — what you found or did, and what is missing — in plain text. Do not call tools.';

/** Why a sub-agent stopped short, said to the parent before its partial result. */
export const partialResultLead = {
  step_limit: `The sub-agent stopped after ${SUB_AGENT_MAX_STEPS} steps without calling ${TASK_RESULT_TOOL}. Its result so far:`,
  budget_exhausted: 'The sub-agent ran out of its token budget before it finished. Its result so far:',
  error: 'The sub-agent failed before it finished. Its result so far:',
} as const;

/** The `note` tool's description. */
export const NOTE_TOOL_DESCRIPTION =
  'Your scratchpad: write down findings and progress as you go (one note per call). If you run out of steps or tokens, your notes are returned with your partial result.';

/** The tools a sub-agent has on top of its own, named for its prompt. */
export const SUB_AGENT_TOOLS = { taskResult: TASK_RESULT_TOOL, note: NOTE_TOOL, newTask: NEW_TASK_TOOL } as const;

/** The result a rejected `newTask` call gives the delegating agent (the person's reason, when they gave one). */
export function rejectedResult(reason?: string): string {
  const why = reason?.trim() ? ` Their reason: “${reason.trim()}”.` : ' They gave no reason.';
  return `Not run: the person rejected this delegation before it started.${why} Do not delegate the same task again unless asked; carry on without it or ask the person.`;
}

/** The result of a call whose `attachments` name files the conversation does not have: nothing ran. */
export function unknownAttachmentsResult(unknown: readonly string[], files: readonly { id: string; name: string }[]): string {
  const named = unknown.map((id) => `"${id}"`).join(', ');
  const what = unknown.length === 1 ? `${named} is not a file of this conversation` : `${named} are not files of this conversation`;
  const list = files.length ? `Files you can pass in attachments: ${files.map((f) => `${f.name} (${f.id})`).join(', ')}.` : 'This conversation has no files.';
  return `Not run: ${what}. ${list}`;
}

/** The result of a call giving its sub-agent more files than one message may carry. */
export function tooManyAttachmentsResult(count: number, max: number): string {
  return `Not run: a sub-agent can be given at most ${max} files with one task (BATON_FILE_MAX_PER_MESSAGE), this call passed ${count}. Split the work or pass fewer files.`;
}
