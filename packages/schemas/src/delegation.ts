import { z } from 'zod';
import { storableString } from './common';

/** At most this many `newTask` calls of one step run; later ones get an error output. */
export const DELEGATION_BATCH_LIMIT = 10;
/** A sub-agent stops when it calls `taskResult`, or after this many steps. */
export const SUB_AGENT_MAX_STEPS = 100;

export const NEW_TASK_TOOL = 'newTask';
export const TASK_RESULT_TOOL = 'taskResult';
/** Every sub-agent's scratchpad: what it writes is stored on its sub-chat and returned with a partial result. */
export const NOTE_TOOL = 'note';
/** The `subAgentId` of the general-purpose sub-agent: the delegating agent itself, in a fresh context. */
export const GENERAL_PURPOSE_ID = 'general-purpose';

/** What a sub-agent is given of its parent's conversation besides the task. */
export const contextModeSchema = z
  .enum(['task_only', 'summary', 'full'])
  .describe(
    'task_only: the task alone; summary: a model-written summary of the parent conversation, then the task; full: the parent conversation text, then the task',
  );
export type ContextMode = z.infer<typeof contextModeSchema>;

export const newTaskInputSchema = z.object({
  subAgentId: z.string().describe('The id of the sub-agent to hand the task to'),
  task: z.string().describe('A complete, self-contained description of the task, with all the context the sub-agent needs'),
  context: contextModeSchema.optional().describe("What the sub-agent gets of this conversation besides the task (default: the agent's setting)"),
  attachments: z
    .array(z.string())
    .optional()
    .describe('Ids of files of this conversation to give the sub-agent with its task (the ids this tool lists); it sees no other file'),
});
export type NewTaskInput = z.infer<typeof newTaskInputSchema>;

export const taskStatusSchema = z.enum(['success', 'error']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const taskResultInputSchema = z.object({
  result: z.string().describe('The result of the task: everything the delegating agent needs'),
  status: taskStatusSchema.describe('"success" when the task was done, "error" when it could not be'),
});
export type TaskResultInput = z.infer<typeof taskResultInputSchema>;

export const MAX_NOTE_CHARS = 4_000;
export const noteInputSchema = z.object({
  text: z.string().describe('What to remember: findings, progress, the partial answer so far'),
});
export type NoteInput = z.infer<typeof noteInputSchema>;
/** A stored scratchpad note of a sub-chat. */
export const subChatNoteSchema = z.object({ text: storableString, createdAt: z.string() }).meta({ id: 'SubChatNote' });
export type SubChatNote = z.infer<typeof subChatNoteSchema>;

/**
 * How a delegation ended. `status` (the design's original contract) is derived from it:
 * only `success` is "success". The UI and the parent model read `outcome`.
 */
export const delegationOutcomeSchema = z.enum(['success', 'error', 'cancelled', 'step_limit', 'budget_exhausted', 'interrupted', 'rejected']);
export type DelegationOutcome = z.infer<typeof delegationOutcomeSchema>;

export const tokenUsageSchema = z
  .object({
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    /** Some of these tokens were counted by Baton with a tokenizer because the provider reported none (many local servers): an estimate. */
    estimated: z.boolean().optional(),
    /** Some of the work was a remote (A2A) agent's, which reports no tokens: the counts leave it out, and the UI says "unknown" rather than 0. */
    unknown: z.boolean().optional(),
  })
  .meta({ id: 'TokenUsage' });
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** Tokens of an answer or a chat: its own model calls, those of the sub-agents it delegated to (the whole tree), and both. */
export const usageSplitSchema = z.object({ own: tokenUsageSchema, delegated: tokenUsageSchema, total: tokenUsageSchema }).meta({ id: 'UsageSplit' });
export type UsageSplit = z.infer<typeof usageSplitSchema>;

/** What the delegating agent receives as the output of its `newTask` call, in both flows. */
export const newTaskOutputSchema = z
  .object({
    result: z.string(),
    status: taskStatusSchema,
    subChatId: z.string().nullable(),
    outcome: delegationOutcomeSchema,
    /** Tokens the sub-agent (and its own sub-agents) used. */
    usage: tokenUsageSchema,
    /** The result was longer than the root agent's `maxResultChars`: the whole result is in the sub-chat. */
    truncated: z.boolean(),
  })
  .meta({ id: 'NewTaskOutput' });
export type NewTaskOutput = z.infer<typeof newTaskOutputSchema>;

/** While a sub-agent works (server flow), `newTask` has preliminary outputs of this shape. */
export const subAgentProgressSchema = z
  .object({
    /** `awaiting_approval`: the sub-agent's own newTask call waits for a person (the root's requireApproval). */
    status: z.enum(['queued', 'running', 'awaiting_approval']),
    subChatId: z.string().nullable(),
    steps: z.number().int(),
    preview: z.string(),
    usage: tokenUsageSchema,
  })
  .meta({ id: 'SubAgentProgress' });
export type SubAgentProgress = z.infer<typeof subAgentProgressSchema>;
