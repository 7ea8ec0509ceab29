import {
  type AnyPgColumn,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

// The one data model of Baton (DESIGN §3). Ids are text so clients may generate chat
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
    ...timestamps,
  },
  (t) => [index('provider_workspace_created_idx').on(t.workspaceId, t.createdAt)],
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
    ...timestamps,
  },
  (t) => [index('agent_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);

export const chat = pgTable(
  'chat',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspace.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').references(() => agent.id, { onDelete: 'set null' }),
    title: text('title').notNull().default('New chat'),
    parentChatId: text('parent_chat_id').references((): AnyPgColumn => chat.id, { onDelete: 'cascade' }),
    parentToolCallId: text('parent_tool_call_id'),
    delegateTask: text('delegate_task'),
    delegateResult: text('delegate_result'),
    /** Only sub-chats have a status: running / success / error / cancelled. */
    status: text('status', { enum: ['running', 'success', 'error', 'cancelled'] }),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('chat_parent_chat_id_idx').on(t.parentChatId),
    index('chat_workspace_updated_idx').on(t.workspaceId, t.updatedAt),
  ],
);

export const message = pgTable(
  'message',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chat.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    parts: jsonb('parts').$type<Record<string, unknown>[]>().notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /** Position within the chat: messages are ordered by it, not by clock time. */
    seq: integer('seq').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('message_chat_seq_idx').on(t.chatId, t.seq)],
);
