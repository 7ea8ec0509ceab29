import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  DEFAULT_DELEGATION_SETTINGS,
  agentEditableBySchema,
  type AgentEditableBy,
  feedbackRatingSchema,
  type FeedbackRating,
  chatSources,
  contextModeSchema,
  delegationOutcomeSchema,
  type ContextMode,
  type DelegationOutcome,
  type DelegationSettings,
  type McpFailure,
  type McpTool,
  type McpTransport,
  type PdfInput,
  type RemoteAgentConfig,
  type SubChatNote,
  type BatonUIPart,
  type FileUIPartInput,
  mcpTransportSchema,
  PDF_INPUT_MODES,
} from '@baton/schemas';

// Drizzle wants a non-empty tuple to type the column as the enum.
const delegationOutcomes = delegationOutcomeSchema.options as [DelegationOutcome, ...DelegationOutcome[]];
const contextModes = contextModeSchema.options as [ContextMode, ...ContextMode[]];
const mcpTransports = mcpTransportSchema.options as [McpTransport, ...McpTransport[]];
const pdfInputModes = [...PDF_INPUT_MODES] as [PdfInput, ...PdfInput[]];
const agentEditableBy = agentEditableBySchema.options as [AgentEditableBy, ...AgentEditableBy[]];
const feedbackRatings = feedbackRatingSchema.options as [FeedbackRating, ...FeedbackRating[]];

// The one data model of Baton (docs/design.md §3). Ids are text so clients may generate chat
// and message ids (the AI SDK does), and timestamps carry milliseconds for ordering.
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

export const workspace = pgTable('workspace', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});

// ---- Accounts (better-auth's tables, read and written by its Drizzle adapter) ----
// The property names are better-auth's field names; the columns follow Baton's naming.

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  ...timestamps,
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    ...timestamps,
  },
  (t) => [index('session_user_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true, precision: 3 }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true, precision: 3 }),
    scope: text('scope'),
    /** The password hash (scrypt) for email + password accounts. */
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('account_user_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    ...timestamps,
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/** better-auth's rate-limit counters, shared by every replica (sign-in attempts per client). */
export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

// ---- Access to workspaces ----

export const workspaceRoles = ['owner', 'admin', 'member'] as const;

export const workspaceMember = pgTable(
  'workspace_member',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role', { enum: workspaceRoles }).notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_member_user_idx').on(t.userId),
    // A workspace has exactly one owner: the first sign-up, or whoever it was handed to.
    uniqueIndex('workspace_one_owner').on(t.workspaceId).where(sql`${t.role} = 'owner'`),
  ],
);

/** An invite link: whoever opens it (signed up or signing up) joins the workspace with `role`, once. */
export const invitation = pgTable(
  'invitation',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    /** SHA-256 of the link's token: the token itself is shown once, to the admin who made it. */
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    acceptedBy: text('accepted_by').references(() => user.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('invitation_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** A REST client's key: one user's access to one workspace. Only its SHA-256 is kept. */
export const apiKey = pgTable(
  'api_key',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters of the key, so a person can tell their keys apart. */
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('api_key_workspace_user_idx').on(t.workspaceId, t.userId)],
);

export const provider = pgTable(
  'provider',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    apiKey: text('api_key'),
    modelIds: jsonb('model_ids').$type<string[]>().notNull().default([]),
    /** Context window in tokens per model id (agent/context-window.ts: models not named get a default). */
    contextWindows: jsonb('context_windows').$type<Record<string, number>>().notNull().default({}),
    /** How PDFs reach this provider's models: `auto`, `file` or `text` (PdfInput of @baton/schemas). */
    pdfInput: text('pdf_input', { enum: pdfInputModes }).notNull().default('auto'),
    ...timestamps,
  },
  (t) => [index('provider_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * An MCP tool server of a workspace. `headers` is the JSON of the header map, encrypted like a
 * provider key (bound to the row): only the names are ever shown. `tools` / `tools_error` are
 * the last listing (or why it failed), so the tool catalog never waits on a server.
 */
export const mcpServer = pgTable(
  'mcp_server',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    transport: text('transport', { enum: mcpTransports }).notNull().default('auto'),
    headers: text('headers'),
    headerNames: jsonb('header_names').$type<string[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    tools: jsonb('tools').$type<McpTool[]>().notNull().default([]),
    toolsError: jsonb('tools_error').$type<McpFailure>(),
    toolsCheckedAt: timestamp('tools_checked_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (t) => [
    index('mcp_server_workspace_created_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('mcp_server_workspace_name_unique').on(t.workspaceId, sql`lower(${t.name})`),
  ],
);

/**
 * The OAuth state of a workspace's MCP server (MCP authorization: RFC 9728 resource metadata,
 * RFC 8414 discovery, RFC 7591 registration, authorization code + PKCE). A row exists once the
 * server answered with an OAuth challenge. Secrets (client registration, tokens, the PKCE
 * verifier) are encrypted with `Secrets`, bound to the server id; the discovery state is the
 * servers' public metadata. Tokens belong to the workspace's server, used by every turn of it.
 */
export const mcpServerOAuth = pgTable('mcp_server_oauth', {
  serverId: text('server_id')
    .primaryKey()
    .references(() => mcpServer.id, { onDelete: 'cascade' }),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspace.id, { onDelete: 'cascade' }),
  /** From the challenge's `WWW-Authenticate` (resource_metadata, scope), when it gave them. */
  resourceMetadataUrl: text('resource_metadata_url'),
  scope: text('scope'),
  discovery: jsonb('discovery').$type<Record<string, unknown>>(),
  client: text('client'),
  tokens: text('tokens'),
  tokensExpireAt: timestamp('tokens_expire_at', { withTimezone: true, precision: 3 }),
  connectedAt: timestamp('connected_at', { withTimezone: true, precision: 3 }),
  /** A Connect under way: SHA-256 of its `state`, the encrypted PKCE verifier, who started it and when. */
  pendingState: text('pending_state'),
  pendingVerifier: text('pending_verifier'),
  pendingUserId: text('pending_user_id'),
  pendingStartedAt: timestamp('pending_started_at', { withTimezone: true, precision: 3 }),
  ...timestamps,
});

/**
 * An operator's MCP server (BATON_MCP_CONFIG) switched on in a workspace: a row while it is on,
 * none by default. `server_id` is the server's stable id (`inst_<name>`), not a foreign key: the
 * file may lose the server, and the row then simply names nothing.
 */
export const workspaceInstanceMcpServer = pgTable(
  'workspace_instance_mcp_server',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    serverId: text('server_id').notNull(),
    enabledAt: timestamp('enabled_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.serverId] })],
);

export const agent = pgTable(
  'agent',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    systemPrompt: text('system_prompt').notNull().default(''),
    providerId: text('provider_id').references(() => provider.id, { onDelete: 'set null' }),
    modelId: text('model_id'),
    temperature: doublePrecision('temperature'),
    maxSteps: integer('max_steps').notNull().default(20),
    toolIds: jsonb('tool_ids').$type<string[]>().notNull().default([]),
    subAgentIds: jsonb('sub_agent_ids').$type<string[]>().notNull().default([]),
    /** The rules of the delegation trees this agent is the root of (see DelegationSettings). */
    delegation: jsonb('delegation').$type<DelegationSettings>().notNull().default(DEFAULT_DELEGATION_SETTINGS),
    /**
     * A remote A2A agent (null: a local one, run by a model): where its Agent Card is and the
     * names of the headers sent with every request to it. Its header map is `remote_headers`,
     * encrypted like provider keys (services/remote-agents.ts), never returned.
     */
    remote: jsonb('remote').$type<RemoteAgentConfig>(),
    remoteHeaders: text('remote_headers'),
    /** Published over A2A (routes/a2a.ts): off until someone switches it on. */
    a2aPublished: boolean('a2a_published').notNull().default(false),
    /**
     * Who made it: they (and the workspace's admins) may change or delete it. Null when nobody
     * is known (the account is gone, or starter agents before the owner signed up, who then
     * adopts them): only admins may then, unless `editable_by` is `workspace`.
     */
    authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
    /** `author`: only the author and admins may change it; `workspace`: every member may. */
    editableBy: text('editable_by', { enum: agentEditableBy }).notNull().default('author'),
    /** People may pick another model of the agent's provider for one chat (`chat.model_override`). */
    allowModelOverride: boolean('allow_model_override').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('agent_workspace_created_idx').on(t.workspaceId, t.createdAt),
    // Delegation and people pick agents by name: two "Critic"s in one workspace would be
    // ambiguous. Case-insensitive; names are stored trimmed, so no trim() is needed here.
    uniqueIndex('agent_workspace_name_unique').on(t.workspaceId, sql`lower(${t.name})`),
  ],
);

export const chat = pgTable(
  'chat',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').references(() => agent.id, { onDelete: 'set null' }),
    /** The author: chats are private to them within the workspace (sub-chats inherit it). */
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default('New chat'),
    parentChatId: text('parent_chat_id').references((): AnyPgColumn => chat.id, { onDelete: 'cascade' }),
    parentToolCallId: text('parent_tool_call_id'),
    /** Which run of its parent's call this sub-chat is: 1, then 2, 3… for each retry of the delegation. */
    attempt: integer('attempt').notNull().default(1),
    delegateTask: text('delegate_task'),
    delegateResult: text('delegate_result'),
    /**
     * How a sub-chat's delegation ended (DelegationOutcome); null while it runs. The one stored
     * truth of a sub-chat's state: its status (running / success / error / cancelled) is derived
     * from it (`subChatStatus` in services/sub-chat-state.ts), so the two cannot disagree.
     */
    outcome: text('outcome', { enum: delegationOutcomes }),
    /** 0: a top-level chat; a sub-chat is one deeper than its parent. */
    depth: integer('depth').notNull().default(0),
    /** What a sub-agent was given of its parent's conversation besides the task. */
    contextMode: text('context_mode', { enum: contextModes }),
    /** The summary or conversation text given before the task (context modes summary / full). */
    delegateContext: text('delegate_context'),
    /** The tools the sub-agent could use, fixed when the sub-chat was born. */
    effectiveToolIds: jsonb('effective_tool_ids').$type<string[]>(),
    /** The sub-agent's scratchpad: its `note` calls, in order. */
    notes: jsonb('notes').$type<SubChatNote[]>().notNull().default([]),
    /** Tokens of this chat's own runs (its sub-chats count their own). */
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /**
     * Tokens spent by sub-chats that were deleted with a replaced answer (Regenerate, an
     * edit): delegated by this chat and still spent, so its roll-up keeps counting them.
     */
    replacedInputTokens: integer('replaced_input_tokens').notNull().default(0),
    replacedOutputTokens: integer('replaced_output_tokens').notNull().default(0),
    /** `app`: started in the web app; `api`: by a program with an API key (top-level chats; sub-chats keep the default). */
    source: text('source', { enum: chatSources }).notNull().default('app'),
    /** The key an `api` chat was started with, by its name then: the key may be revoked since. */
    apiKeyName: text('api_key_name'),
    /** Pinned by its author (top of the chat list) since then; null when not pinned. */
    pinnedAt: timestamp('pinned_at', { withTimezone: true }),
    /** Archived by its author (out of the chat list, in the Archived view) since then; null when not archived. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /**
     * A model of the agent's provider that this chat's turns use instead of the agent's own
     * (top-level chats, agents with `allow_model_override`); cleared when the chat's agent changes.
     */
    modelOverride: text('model_override'),
    /**
     * A sub-chat's W3C `traceparent`: its parent's `newTask` call span (ops/tracing.ts). Every run
     * of the sub-chat, on whichever replica, is a child of it. Null without tracing.
     */
    traceParent: text('trace_parent'),
    ...timestamps,
  },
  (t) => [
    index('chat_parent_chat_id_idx').on(t.parentChatId),
    index('chat_workspace_user_updated_idx').on(t.workspaceId, t.userId, t.updatedAt),
    // One sub-chat per attempt of a delegating call, whichever flow or replica starts it.
    uniqueIndex('chat_parent_tool_call_attempt_unique').on(t.parentChatId, t.parentToolCallId, t.attempt),
  ],
);

/**
 * A read-only link to a chat (and every sub-chat below it) that anyone holding it may open
 * without signing in. Only the SHA-256 of its token is kept (the token is shown once, like an
 * API key's). It goes with the chat, and stops working when it expires or its author can no
 * longer read the chat (services/shares.ts checks the membership at each read).
 */
export const chatShare = pgTable(
  'chat_share',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** Null: until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('chat_share_workspace_user_idx').on(t.workspaceId, t.userId, t.createdAt), index('chat_share_chat_idx').on(t.chatId)],
);

/**
 * The span of a `newTask` call the browser runs (written only with tracing on, before the call
 * reaches the browser): the sub-chat a later request starts for it, maybe on another
 * replica, takes it as its `trace_parent`.
 */
export const toolCallTrace = pgTable(
  'tool_call_trace',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    toolCallId: text('tool_call_id').notNull(),
    traceParent: text('trace_parent').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.toolCallId] })],
);

export const message = pgTable(
  'message',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    /** The message's parts as the AI SDK's UI message holds them (BatonUIMessage). */
    parts: jsonb('parts').$type<BatonUIPart[]>().notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /**
     * Position within its branch (1 for a chat's first message): the active branch is ordered
     * by it, not by clock time. Versions of a message (an edit, a regenerated answer) share it.
     */
    seq: integer('seq').notNull(),
    /**
     * The message this one follows (null for a first message). Messages form a tree: an edit or
     * a regenerated answer is a sibling of the message it replaces, so both stay stored.
     */
    parentId: text('parent_id').references((): AnyPgColumn => message.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    /** The version chosen among its siblings (one per parent); kept while the branch above is inactive, so switching back restores it. */
    selected: boolean('selected').notNull().default(true),
    /**
     * On the chat's active branch: it and every message above it are selected. Materialised so
     * the active branch — what every reader sees — is one indexed query, not a walk of the tree.
     */
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('message_chat_seq_idx').on(t.chatId, t.seq).where(sql`${t.active}`),
    index('message_chat_parent_idx').on(t.chatId, t.parentId),
    // Chat search: the words of a message's text parts (the query repeats this expression exactly, see MESSAGE_WORDS).
    index('message_text_search_idx').using(
      'gin',
      sql`jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(${t.parts}, '$[*] ? (@.type == "text").text'), '["string"]')`,
    ),
  ],
);

/**
 * A person's rating of an answer (thumbs up or down, an optional comment): one per person and
 * message, replaced when they rate again. `agent_id` is the agent whose answer it was when it
 * was rated, so admins list feedback per agent even after the chat moved on; the workspace is
 * kept for scoping that list.
 */
export const messageFeedback = pgTable(
  'message_feedback',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => message.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').references(() => agent.id, { onDelete: 'set null' }),
    rating: text('rating', { enum: feedbackRatings }).notNull(),
    comment: text('comment'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('message_feedback_message_user_unique').on(t.messageId, t.userId),
    index('message_feedback_chat_idx').on(t.chatId),
    index('message_feedback_agent_updated_idx').on(t.workspaceId, t.agentId, t.updatedAt),
  ],
);

export const runStatuses = ['running', 'succeeded', 'failed', 'cancelled', 'interrupted', 'awaiting_approval'] as const;
export type RunStatus = (typeof runStatuses)[number];

/**
 * One turn of a chat (a parent's answer or a sub-agent's whole task). The database, not a
 * process's memory, decides which request gets to run: at most one `running` run per chat.
 * A process keeps `heartbeat_at` fresh while it works; a run whose heartbeat is stale
 * belonged to a process that died and is marked `interrupted` by whichever replica notices.
 */
export const run = pgTable(
  'run',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    /** `turn`: an answer in a top-level chat; `sub_agent`: a sub-chat working on its task. */
    kind: text('kind', { enum: ['turn', 'sub_agent'] }).notNull(),
    /** Who runs `newTask`: the browser (`client`) or this server (`server`, REST clients). */
    mode: text('mode', { enum: ['client', 'server'] }).notNull(),
    status: text('status', { enum: runStatuses }).notNull().default('running'),
    /** The assistant message this run writes (a continuation writes into an existing one). */
    messageId: text('message_id').notNull(),
    /** How many parts that message had before the run: a resumed stream replays onto them. */
    basePartCount: integer('base_part_count').notNull().default(0),
    /** The process that executes the run (see RunRegistry.owner). */
    owner: text('owner').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
    stopRequestedAt: timestamp('stop_requested_at', { withTimezone: true, precision: 3 }),
    error: text('error'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /** Model steps the run took (the trace shows them). */
    steps: integer('steps').notNull().default(0),
  },
  (t) => [
    uniqueIndex('run_one_active_per_chat').on(t.chatId).where(sql`${t.status} = 'running'`),
    index('run_chat_started_idx').on(t.chatId, t.startedAt),
    index('run_active_heartbeat_idx').on(t.heartbeatAt).where(sql`${t.status} = 'running'`),
  ],
);

/**
 * A message a person sent to a running sub-agent. Stored before it is delivered, so any
 * replica's run picks it up at its next step (and it is not lost to a restart); the run
 * that was running when it was sent is the only one that may deliver it.
 */
export const steeringMessage = pgTable(
  'steering_message',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    runId: text('run_id')
      .notNull()
      .references(() => run.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /**
     * Its files as Baton file parts (references, in the order sent). The files themselves were
     * put into the sub-chat when it was queued, so they are read and deleted with it.
     */
    files: jsonb('files').$type<FileUIPartInput[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    /** The run's step whose model call received it. */
    stepNumber: integer('step_number'),
  },
  (t) => [index('steering_message_chat_created_idx').on(t.chatId, t.createdAt), index('steering_message_run_idx').on(t.runId)],
);

/** Postgres `bytea` as a Uint8Array (node-postgres answers a Buffer, PGlite a Uint8Array: both are one). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A file a person uploaded (services/files.ts). It belongs to no chat until a message attaches
 * it (`chat_id`); unattached ones are removed after a day, attached ones go with their chat.
 * The bytes live in `bytes` (the default: one database to back up and share between
 * replicas) or in S3-compatible storage under `storage_key` (`BATON_S3_*`).
 */
export const file = pgTable(
  'file',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    /** The uploader: the only one who may read it while it belongs to no chat. */
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    chatId: text('chat_id').references(() => chat.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Decided from the bytes (FILE_MEDIA_TYPES), never the client's claim. */
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    /** Hex SHA-256 of the bytes. */
    sha256: text('sha256').notNull(),
    storage: text('storage', { enum: ['database', 's3'] }).notNull(),
    storageKey: text('storage_key').notNull(),
    /** The bytes, when `storage` is `database`. */
    bytes: bytea('bytes'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('file_chat_idx').on(t.chatId),
    index('file_workspace_user_idx').on(t.workspaceId, t.userId),
    // The sweep of unattached uploads.
    index('file_unattached_created_idx').on(t.createdAt).where(sql`${t.chatId} IS NULL`),
  ],
);

/**
 * Files given to a sub-chat by the `newTask` call that started it (`attachments`): a file
 * belongs to the one chat its message put it in (`file.chat_id`, which it goes with) and is
 * readable in the sub-chats it was given to as well. A row goes with either side, so deleting
 * a parent (its sub-chats by cascade) leaves no row behind.
 */
export const chatFile = pgTable(
  'chat_file',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    fileId: text('file_id')
      .notNull()
      .references(() => file.id, { onDelete: 'cascade' }),
  },
  // The cascade from a deleted file finds its rows by file id.
  (t) => [primaryKey({ columns: [t.chatId, t.fileId] }), index('chat_file_file_idx').on(t.fileId)],
);

/**
 * Objects in S3 whose file rows are gone (a chat deleted, the sweep): filled by the trigger
 * `file_object_removal_after_delete` (migration 0012), since rows also go by cascades no code
 * sees; the file sweep deletes the objects, then these rows.
 */
export const fileObjectRemoval = pgTable('file_object_removal', {
  storageKey: text('storage_key').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
