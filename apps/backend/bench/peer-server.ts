// The honest anchor for Baton's cost per turn: what a developer gets from the AI SDK's own
// chat templates (vercel/ai-chatbot's route, reduced to its storage and streaming). Hono +
// `streamText` → `toUIMessageStreamResponse`; the chat and the user message stored before the
// model call, the history read back for it, the answer stored on finish; the same database
// engine, the same model, the same request and stream shapes as Baton's browser endpoint.
// What it lacks is what Baton adds: runs, the event log, resume, validation, auth, usage,
// delegation. Usage: node --import tsx bench/peer-server.ts <model base URL …/v1>; the
// database from DATABASE_URL (its own tables, `peer_*`) or PGlite in PEER_PGLITE_DIR.
// Prints "listening on <port>".
import { createOpenAI } from '@ai-sdk/openai';
import { DEMO_MODEL_ID } from '@baton/demo-llm';
import { PGlite } from '@electric-sql/pglite';
import { serve } from '@hono/node-server';
import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import { asc, eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Hono } from 'hono';
import pg from 'pg';

const modelBaseURL = process.argv[2];
if (!modelBaseURL) throw new Error('usage: peer-server.ts <model base URL>');

const peerChat = pgTable('peer_chat', {
  id: text('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
const peerMessage = pgTable('peer_message', {
  id: text('id').primaryKey(),
  chatId: text('chat_id')
    .notNull()
    .references(() => peerChat.id, { onDelete: 'cascade' }),
  role: text('role').notNull(),
  parts: jsonb('parts').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

const db = process.env.DATABASE_URL
  ? drizzlePg(new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }))
  : drizzlePglite(new PGlite(process.env.PEER_PGLITE_DIR));
await db.execute(sql`create table if not exists peer_chat (id text primary key, created_at timestamptz not null default now())`);
await db.execute(
  sql`create table if not exists peer_message (id text primary key, chat_id text not null references peer_chat(id) on delete cascade, role text not null, parts jsonb not null, created_at timestamptz not null default now())`,
);
await db.execute(sql`create index if not exists peer_message_chat on peer_message (chat_id, created_at)`);

const model = createOpenAI({ baseURL: modelBaseURL, apiKey: 'peer' }).chat(DEMO_MODEL_ID);

async function history(chatId: string): Promise<UIMessage[]> {
  const rows = await db.select().from(peerMessage).where(eq(peerMessage.chatId, chatId)).orderBy(asc(peerMessage.createdAt));
  return rows.map((r) => ({ id: r.id, role: r.role as UIMessage['role'], parts: r.parts as UIMessage['parts'] }));
}

const app = new Hono();
app.post('/api/workspaces/:ws/chat', async (c) => {
  const { id, message } = (await c.req.json()) as { id: string; message: UIMessage };
  await db.insert(peerChat).values({ id }).onConflictDoNothing();
  await db.insert(peerMessage).values({ id: message.id, chatId: id, role: message.role, parts: message.parts });
  const messages = await history(id);
  const result = streamText({ model, messages: await convertToModelMessages(messages) });
  return result.toUIMessageStreamResponse({
    originalMessages: messages,
    onFinish: async ({ responseMessage }) => {
      await db.insert(peerMessage).values({ id: responseMessage.id || crypto.randomUUID(), chatId: id, role: 'assistant', parts: responseMessage.parts });
    },
  });
});
// What the bench reads to check an answer was stored (Baton's GET …/chats/:id, in its shape).
app.get('/api/workspaces/:ws/chats/:id', async (c) => c.json({ activeRun: null, messages: await history(c.req.param('id')) }));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`listening on ${info.port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
