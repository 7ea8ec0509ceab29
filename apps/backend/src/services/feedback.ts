import { and, count, eq } from 'drizzle-orm';
import {
  cutText,
  readMessageMetadata,
  type AgentFeedbackPage,
  type AgentFeedbackQuery,
  type FeedbackEntry,
  type FeedbackInputParsed,
  type MessageFeedback,
} from '@baton/schemas';
import type { Database } from '../db/client';
import { chat, message, messageFeedback, user } from '../db/schema';
import { invalidRequest, notFound } from '../errors';
import { newId } from '../ids';
import { findAgent } from './agents';
import { requireChat } from './chat-repository';
import type { ChatOwner, MessageRow } from './chat-rows';
import { keysetOrder, keysetWhere, toPage } from './pagination';

/**
 * Thumbs up or down on answers (issue 24 item 5). A person rates the answers of their own
 * chats (chats are private to their author, so nobody else can reach them); one rating per
 * person and message, replaced when they rate again. Admins read them per agent, with the
 * start of the rated answer: the chat itself stays private.
 */

type FeedbackRow = typeof messageFeedback.$inferSelect;

export function toMessageFeedback(row: Pick<FeedbackRow, 'rating' | 'comment' | 'createdAt' | 'updatedAt'>): MessageFeedback {
  return { rating: row.rating, comment: row.comment, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** The message of this (caller's) chat that may be rated: it exists in the chat, and is an answer. */
async function ratableMessage(db: Database, owner: ChatOwner, chatId: string, messageId: string): Promise<{ row: MessageRow; chatAgentId: string | null }> {
  const target = await requireChat(db, owner, chatId);
  const [row] = await db
    .select()
    .from(message)
    .where(and(eq(message.chatId, target.id), eq(message.id, messageId)))
    .limit(1);
  if (!row) throw notFound('Message', messageId);
  if (row.role !== 'assistant') throw invalidRequest(`message "${messageId}" is a ${row.role} message: only answers (assistant messages) can be rated`);
  return { row, chatAgentId: target.agentId };
}

/** Sets (or replaces) the caller's rating of an answer. */
export async function setFeedback(db: Database, owner: ChatOwner, chatId: string, messageId: string, input: FeedbackInputParsed): Promise<MessageFeedback> {
  const { row, chatAgentId } = await ratableMessage(db, owner, chatId, messageId);
  // The agent that wrote this answer, as the answer recorded it; the chat's agent for answers from before that was recorded.
  const answeredBy = readMessageMetadata(row.metadata).agentId ?? chatAgentId;
  const agentId = answeredBy && (await findAgent(db, owner.workspaceId, answeredBy)) ? answeredBy : null;
  const now = new Date();
  // One statement: two ratings sent at once both succeed, the later one stays.
  const [saved] = await db
    .insert(messageFeedback)
    .values({
      id: newId('fb'),
      messageId,
      userId: owner.userId,
      chatId: row.chatId,
      workspaceId: owner.workspaceId,
      agentId,
      rating: input.rating,
      comment: input.comment,
    })
    .onConflictDoUpdate({
      target: [messageFeedback.messageId, messageFeedback.userId],
      set: { rating: input.rating, comment: input.comment, updatedAt: now },
    })
    .returning();
  return toMessageFeedback(saved!);
}

/** Removes the caller's rating of an answer (nothing to remove is fine: the result is the same). */
export async function clearFeedback(db: Database, owner: ChatOwner, chatId: string, messageId: string): Promise<void> {
  await ratableMessage(db, owner, chatId, messageId);
  await db.delete(messageFeedback).where(and(eq(messageFeedback.messageId, messageId), eq(messageFeedback.userId, owner.userId)));
}

/** The caller's ratings of a chat's messages, by message id: what `GET …/chats/:id` puts on each message. */
export async function ownFeedbackByMessage(db: Database, userId: string, chatId: string): Promise<Map<string, MessageFeedback>> {
  const rows = await db
    .select()
    .from(messageFeedback)
    .where(and(eq(messageFeedback.chatId, chatId), eq(messageFeedback.userId, userId)));
  return new Map(rows.map((r) => [r.messageId, toMessageFeedback(r)]));
}

const EXCERPT_CHARS = 280;

/** The start of an answer's text (its text parts, markdown marks and whitespace folded), for reading a rating without the chat. */
function answerExcerpt(parts: MessageRow['parts']): string {
  const text = parts
    .flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : []))
    .join('\n')
    // Read as plain text: line markers (quotes, headings, bullets) and emphasis marks out.
    .replace(/^\s*(?:[>#]+|[-*+]|\d+\.)\s+/gm, '')
    .replace(/`+|\*{1,3}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_CHARS ? `${cutText(text, EXCERPT_CHARS - 1)}…` : text;
}

const entryColumns = {
  feedback: messageFeedback,
  chatTitle: chat.title,
  userName: user.name,
  parts: message.parts,
};

type EntryRow = { feedback: FeedbackRow; chatTitle: string; userName: string; parts: MessageRow['parts'] };

function toEntry(r: EntryRow): FeedbackEntry {
  const f = r.feedback;
  return {
    id: f.id,
    messageId: f.messageId,
    chatId: f.chatId,
    chatTitle: r.chatTitle,
    agentId: f.agentId,
    userId: f.userId,
    userName: r.userName,
    rating: f.rating,
    comment: f.comment,
    answerExcerpt: answerExcerpt(r.parts),
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

const keyset = { at: messageFeedback.updatedAt, id: messageFeedback.id, direction: 'desc' } as const;

/** Admins: the ratings of one agent's answers in this workspace, newest first, with its totals. */
export async function listAgentFeedback(db: Database, workspaceId: string, agentId: string, query: AgentFeedbackQuery): Promise<AgentFeedbackPage> {
  if (!(await findAgent(db, workspaceId, agentId))) throw notFound('Agent', agentId);
  const ofAgent = and(eq(messageFeedback.workspaceId, workspaceId), eq(messageFeedback.agentId, agentId));
  const [rows, totals] = await Promise.all([
    db
      .select(entryColumns)
      .from(messageFeedback)
      .innerJoin(chat, eq(chat.id, messageFeedback.chatId))
      .innerJoin(user, eq(user.id, messageFeedback.userId))
      .innerJoin(message, eq(message.id, messageFeedback.messageId))
      .where(and(ofAgent, query.rating && eq(messageFeedback.rating, query.rating), keysetWhere(keyset, query.cursor)))
      .orderBy(...keysetOrder(keyset))
      .limit(query.limit + 1),
    db.select({ rating: messageFeedback.rating, n: count() }).from(messageFeedback).where(ofAgent).groupBy(messageFeedback.rating),
  ]);
  const page = toPage(rows, query, (r) => ({ at: r.feedback.updatedAt, id: r.feedback.id }), toEntry);
  const total = (rating: 'up' | 'down') => Number(totals.find((t) => t.rating === rating)?.n ?? 0);
  return { ...page, totals: { up: total('up'), down: total('down') } };
}

/**
 * Every rating given in a chat, oldest first, for a chat's export (JSON) to carry. The caller
 * has already established that the chat is the requester's (`requireChat`): this reads by id.
 */
export async function feedbackForChat(db: Database, chatId: string): Promise<FeedbackEntry[]> {
  const rows = await db
    .select(entryColumns)
    .from(messageFeedback)
    .innerJoin(chat, eq(chat.id, messageFeedback.chatId))
    .innerJoin(user, eq(user.id, messageFeedback.userId))
    .innerJoin(message, eq(message.id, messageFeedback.messageId))
    .where(eq(messageFeedback.chatId, chatId))
    .orderBy(message.seq, messageFeedback.createdAt);
  return rows.map(toEntry);
}
