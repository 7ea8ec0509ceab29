import type { InferUIMessageChunk, UIMessage } from 'ai';
import { z } from 'zod';
import type { NewTaskInput, NewTaskOutput, NoteInput, SubAgentProgress, TaskResultInput } from './delegation';
import { usageSplitSchema } from './delegation';
import type { RunErrorData, RunRetryData } from './runs';

/**
 * The conversation did not fit the model's context window, so the oldest messages were left
 * out of the model's input (counted in model messages: a step with tool calls is two).
 */
export const contextTrimmedSchema = z
  .object({
    /** Messages the latest model call was given. */
    sentMessages: z.number().int().nonnegative(),
    /** Messages of the conversation at that point. */
    totalMessages: z.number().int().nonnegative(),
    /** The window they were fitted into, in tokens. */
    contextWindow: z.number().int().positive(),
  })
  .meta({ id: 'ContextTrimmed' });
export type ContextTrimmed = z.infer<typeof contextTrimmedSchema>;

/** What the backend records on an assistant message. */
export const messageMetadataSchema = z
  .object({
    /** The agent that wrote the answer, and its name at the time (a chat may switch agents; agents are renamed). */
    agentId: z.string().optional(),
    agentName: z.string().optional(),
    /** The provider's model id that wrote it (the agent's, or the chat's model override). */
    modelId: z.string().optional(),
    startedAt: z.string().optional(),
    /** Tokens of this answer: its own model calls, its delegations (whole tree), and both. */
    usage: usageSplitSchema.optional(),
    /** Of this answer's own output tokens, those the model spent reasoning (`completion_tokens_details.reasoning_tokens`). */
    reasoningTokens: z.number().int().optional(),
    finishReason: z.string().optional(),
    durationMs: z.number().optional(),
    firstTokenMs: z.number().nullable().optional(),
    /** The user stopped the answer; what was streamed before it is kept. */
    stopped: z.boolean().optional(),
    /** Set when older messages were left out of the model's input to fit its context window. */
    contextTrimmed: contextTrimmedSchema.optional(),
    /** A remote A2A agent's answer: the id of the task it works on (recovery cancels it when the run's process died). */
    remoteTaskId: z.string().optional(),
  })
  .meta({ id: 'MessageMetadata' });
export type BatonMessageMetadata = z.infer<typeof messageMetadataSchema>;

/** Baton's `data-*` parts (the part type is `data-<key>`). */
// A type alias, not an interface: the AI SDK's UIDataTypes wants an index-signature-compatible type.
export type BatonDataParts = {
  /** Why an answer failed (`data-run-error`), stored in the message. */
  'run-error': RunErrorData;
  /** The provider failed and is being asked again (`data-run-retry`, transient: live only). */
  'run-retry': RunRetryData;
};

/** The tools whose parts Baton's clients read, with their inputs and outputs. */
export type BatonUITools = {
  newTask: { input: NewTaskInput; output: NewTaskOutput | SubAgentProgress };
  taskResult: { input: TaskResultInput; output: unknown };
  note: { input: NoteInput; output: { saved: true } };
  // The built-in tools (apps/backend/src/agent/tools): the UI shows their input and output as JSON.
  calculator: { input: { expression: string }; output: unknown };
  currentTime: { input: { timeZone?: string }; output: unknown };
};

/** A chat message as Baton stores and streams it: the AI SDK's UI message with Baton's metadata, data and tools. */
export type BatonUIMessage = UIMessage<BatonMessageMetadata, BatonDataParts, BatonUITools>;
export type BatonUIPart = BatonUIMessage['parts'][number];
/** A chunk of a BatonUIMessage's stream (what a run relays): its metadata and data parts typed. */
export type BatonUIMessageChunk = InferUIMessageChunk<BatonUIMessage>;

/** Reads stored metadata, keeping only fields of the expected type (older messages have other shapes). */
export function readMessageMetadata(metadata: unknown): BatonMessageMetadata {
  if (!metadata || typeof metadata !== 'object') return {};
  const parsed = messageMetadataSchema.safeParse(metadata);
  if (parsed.success) return parsed.data;
  const fields = messageMetadataSchema.shape;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const field = fields[key as keyof typeof fields];
    if (field?.safeParse(value).success) out[key] = value;
  }
  return out as BatonMessageMetadata;
}
