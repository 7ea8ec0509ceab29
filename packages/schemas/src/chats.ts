import { z } from 'zod';
import { pendingApprovalSchema } from './approvals';
import { apiErrorSchema, idSchema, listQuerySchema, pageSchema, storableString, timestampSchema } from './common';
import { contextModeSchema, delegationOutcomeSchema, subChatNoteSchema, tokenUsageSchema, usageSplitSchema } from './delegation';
import { messageFeedbackSchema } from './feedback';
import { runSchema, runStatusSchema } from './runs';
import type { BatonUIPart } from './ui-message';

export const subChatStatusSchema = z.enum(['running', 'success', 'error', 'cancelled']);
export type SubChatStatus = z.infer<typeof subChatStatusSchema>;

export const messageRoleSchema = z.enum(['system', 'user', 'assistant']);

/**
 * A message part, as the API describes it: any object (the AI SDK's UI message parts and
 * Baton's own); typed as the part of a BatonUIMessage, which is what the backend stores.
 */
const storedPartSchema = z.record(z.string(), z.unknown()) as unknown as z.ZodType<BatonUIPart>;

/**
 * Where a message stands among its versions (an edited question, a regenerated answer): the
 * chat's other branches start at its siblings. `index` is 1-based, oldest first, as a pager
 * shows it (`‹ 2/3 ›`); `ids` are the versions in that order, each one
 * `POST …/messages/:id/activate` switches to.
 */
export const messageVersionsSchema = z
  .object({
    index: z.number().int().min(1),
    count: z.number().int().min(2),
    ids: z.array(z.string()),
  })
  .meta({ id: 'MessageVersions' });
export type MessageVersions = z.infer<typeof messageVersionsSchema>;

/**
 * A stored message: `parts` are AI SDK UI message parts, kept as the SDK produced them.
 * `versions` only on a message of a chat's active branch that has siblings.
 */
export const messageSchema = z
  .object({
    id: z.string(),
    chatId: z.string(),
    role: messageRoleSchema,
    parts: z.array(storedPartSchema),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    /** The caller's own rating of an assistant message (`PUT …/messages/:messageId/feedback`); null when none, absent where not read (e.g. a turn's result). */
    feedback: messageFeedbackSchema.nullable().optional(),
    createdAt: timestampSchema,
    versions: messageVersionsSchema.optional(),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof messageSchema>;

export const chatSources = ['app', 'api'] as const;
export const chatSourceSchema = z.enum(chatSources).meta({ id: 'ChatSource' });
export type ChatSource = z.infer<typeof chatSourceSchema>;

/**
 * The chat list's query: a page, optionally only chats from one source (the sidebar hides
 * `api` chats on request). `archived=true` lists the archived chats instead of the others.
 */
export const chatListQuerySchema = listQuerySchema.extend({
  source: chatSourceSchema.optional(),
  archived: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type ChatListQuery = z.infer<typeof chatListQuerySchema>;

export const chatSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    agentId: z.string().nullable(),
    title: z.string(),
    parentChatId: z.string().nullable(),
    parentToolCallId: z.string().nullable(),
    /** Sub-chats: which attempt at its parent's call (1, then one more per retry of the delegation). */
    attempt: z.number().int(),
    delegateTask: z.string().nullable(),
    /** A sub-chat's result, as its `taskResult` call (or the failure) stated it. */
    delegateResult: z.string().nullable(),
    status: subChatStatusSchema.nullable(),
    /** How the delegation ended (sub-chats; null while running, and for top-level chats). */
    outcome: delegationOutcomeSchema.nullable(),
    /** 0 for a top-level chat, 1 for its sub-chats, 2 for theirs… */
    depth: z.number().int(),
    /** What the sub-agent was given of its parent's conversation (sub-chats). */
    contextMode: contextModeSchema.nullable(),
    /** The summary or conversation text given before the task (contextMode summary / full). */
    delegateContext: z.string().nullable(),
    /** The tools the sub-agent could use: its own, intersected with its parent's unless the root agent says otherwise. */
    effectiveToolIds: z.array(z.string()).nullable(),
    /** The sub-agent's scratchpad (its `note` calls). */
    notes: z.array(subChatNoteSchema),
    /** Tokens of this chat's own runs (not its sub-chats'). */
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    /** Where the chat was started: `app` in Baton's web app (a session), `api` by a program with an API key (`/v1` or the REST API). */
    source: chatSourceSchema,
    /** The API key an `api` chat was started with, by name as it was then (kept after the key is revoked); null for `app`. */
    apiKeyName: z.string().nullable(),
    /** Pinned by its author: listed first (top-level chats). */
    pinned: z.boolean(),
    /** Archived by its author: listed only with `archived=true`; still readable and usable. */
    archived: z.boolean(),
    /** A model of the agent's provider this chat's turns use instead of the agent's own (agents that allow it); null: the agent's. */
    modelOverride: z.string().nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Chat' });
export type Chat = z.infer<typeof chatSchema>;

export const chatWithMessagesSchema = chatSchema
  .extend({
    messages: z.array(messageSchema),
    /** A turn is running on the server right now (e.g. the page was reloaded mid-answer). */
    answering: z.boolean(),
    /** The running turn, if any: follow it with `GET …/chats/:id/stream`. */
    activeRun: runSchema.nullable(),
    /** Tokens of this chat's own runs, of its whole delegation tree below it, and both. */
    usage: usageSplitSchema,
    /** `newTask` calls of the last answer waiting for a person's decision (`POST …/approvals/:toolCallId`). */
    pendingApprovals: z.array(pendingApprovalSchema),
  })
  .meta({ id: 'ChatWithMessages' });
export type ChatWithMessages = z.infer<typeof chatWithMessagesSchema>;

export const chatTitleSchema = storableString.trim().min(1, 'must not be empty').max(200);

export const chatCreateSchema = z
  .strictObject({
    id: idSchema.optional(),
    agentId: idSchema.optional(),
    title: chatTitleSchema.optional(),
  })
  .meta({ id: 'ChatCreate' });
export type ChatCreate = z.infer<typeof chatCreateSchema>;

/** At most so many pinned chats per person and workspace: the pinned ones are all listed on the first page. */
export const MAX_PINNED_CHATS = 50;

/**
 * Rename, pin or archive a top-level chat (archiving unpins it), or switch its agent or
 * model from the next turn on. A new agent clears the model override unless one is given with it.
 */
export const chatUpdateSchema = z
  .strictObject({
    title: chatTitleSchema.optional(),
    pinned: z.boolean().optional(),
    archived: z.boolean().optional(),
    /** An agent of the same workspace; the chat's next turns are its (the history stays). */
    agentId: idSchema.optional(),
    /** A model of the agent's provider (the agent must allow it); null: the agent's own model again. */
    modelOverride: storableString.trim().min(1, 'must not be empty').max(200).nullable().optional(),
  })
  .refine((v) => Object.values(v).some((field) => field !== undefined), 'give at least one of title, pinned, archived, agentId, modelOverride')
  .refine((v) => !(v.pinned && v.archived), 'a chat cannot be pinned and archived at once')
  .meta({ id: 'ChatUpdate' });
export type ChatUpdate = z.infer<typeof chatUpdateSchema>;

export const chatPageSchema = pageSchema(chatSchema).meta({ id: 'ChatPage' });
export const subChatListSchema = z.object({ data: z.array(chatSchema) }).meta({ id: 'SubChatList' });

/**
 * What `POST …/chats/:id/messages` returns: the messages the turn added (the user message
 * and the answer), the run, and — when the answer failed — the reason, which is also
 * stored in the answer as a `data-run-error` part.
 */
export const chatTurnResultSchema = z
  .object({
    messages: z.array(messageSchema),
    run: runSchema,
    error: apiErrorSchema.shape.error.optional(),
  })
  .meta({ id: 'ChatTurnResult' });
export type ChatTurnResult = z.infer<typeof chatTurnResultSchema>;

/** One chat of a delegation tree: the chat asked for (depth 0 relative to it) or a sub-chat below it. */
export interface TraceNode {
  chatId: string;
  agentId: string | null;
  agentName: string | null;
  /** The delegated task (null for the chat the trace starts at, when it is a top-level chat). */
  task: string | null;
  /** Depth in the whole tree: 0 for a top-level chat. */
  depth: number;
  /** The chat's latest run status (null: it never ran). */
  status: z.infer<typeof runStatusSchema> | null;
  outcome: z.infer<typeof delegationOutcomeSchema> | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  /** Model steps taken over all its runs. */
  steps: number;
  /** Its own tokens (children carry theirs). */
  usage: z.infer<typeof tokenUsageSchema>;
  /** Tokens of its sub-chats that were deleted with a replaced answer (Regenerate, an edit): no longer in the tree, still spent. */
  replacedUsage: z.infer<typeof tokenUsageSchema>;
  children: TraceNode[];
}

export const traceNodeSchema: z.ZodType<TraceNode> = z
  .object({
    chatId: z.string(),
    agentId: z.string().nullable(),
    agentName: z.string().nullable(),
    task: z.string().nullable(),
    depth: z.number().int(),
    status: runStatusSchema.nullable(),
    outcome: delegationOutcomeSchema.nullable(),
    startedAt: timestampSchema,
    endedAt: timestampSchema.nullable(),
    durationMs: z.number().int().nullable(),
    steps: z.number().int(),
    usage: tokenUsageSchema,
    replacedUsage: tokenUsageSchema,
    get children() {
      return z.array(traceNodeSchema);
    },
  })
  .meta({ id: 'TraceNode' });

/** `GET /api/workspaces/:ws/chats/:id/trace`: the chat's delegation tree. */
export const chatTraceSchema = z.object({ root: traceNodeSchema }).meta({ id: 'ChatTrace' });
export type ChatTrace = z.infer<typeof chatTraceSchema>;
