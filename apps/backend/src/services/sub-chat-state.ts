import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { cutText, MAX_NOTE_CHARS, type DelegationOutcome, type SubChatStatus } from '@baton/schemas';
import type { Database } from '../db/client';
import { chat } from '../db/schema';
import type { ChatRow } from './chat-rows';
import { sanitizeText } from './text-hygiene';

/**
 * A sub-chat's delegation state: which sub-chat runs a parent's call, whether it is still at
 * work, how its task ended, its notes. Written by the runtime (a run's end, a cancel, a
 * `note` call); the read model and the runtime read it through these functions.
 *
 * `chat.outcome` is the one stored truth: a sub-chat without one is at work, and its status
 * (running / success / error / cancelled, what the API and the browser show) is derived from
 * it here, so the two can never disagree.
 */

export function statusForOutcome(outcome: DelegationOutcome): Exclude<SubChatStatus, 'running'> {
  return outcome === 'success' ? 'success' : outcome === 'cancelled' ? 'cancelled' : 'error';
}

/** A sub-chat's status: running until it has an outcome, then what that outcome says. A top-level chat has none. */
export function subChatStatus(row: Pick<ChatRow, 'parentChatId' | 'outcome'>): SubChatStatus | null {
  if (row.parentChatId === null) return null;
  return row.outcome === null ? 'running' : statusForOutcome(row.outcome);
}

/** Whether this is a sub-chat still at work (no outcome yet). */
export function isSubChatRunning(row: Pick<ChatRow, 'parentChatId' | 'outcome'>): boolean {
  return row.parentChatId !== null && row.outcome === null;
}

/** `isSubChatRunning` as a query condition. */
export const subChatAtWork = () => and(isNotNull(chat.parentChatId), isNull(chat.outcome));

/** The sub-chat that runs a parent's `newTask` call (its latest attempt), if one was started. */
export async function findSubChatForCall(db: Database, parentChatId: string, toolCallId: string): Promise<ChatRow | undefined> {
  const [row] = await db
    .select()
    .from(chat)
    .where(and(eq(chat.parentChatId, parentChatId), eq(chat.parentToolCallId, toolCallId)))
    // A retried delegation has several attempts; the newest is the call's.
    .orderBy(desc(chat.attempt))
    .limit(1);
  return row;
}

/** The sub-chats started for these calls of a parent chat (every attempt, oldest attempt first). */
export async function findSubChatsForCalls(db: Database, parentChatId: string, toolCallIds: string[]): Promise<ChatRow[]> {
  if (toolCallIds.length === 0) return [];
  return (
    db
      .select()
      .from(chat)
      .where(and(eq(chat.parentChatId, parentChatId), inArray(chat.parentToolCallId, toolCallIds)))
      // Oldest attempt first: a map from call to sub-chat built in this order keeps the newest.
      .orderBy(asc(chat.attempt))
  );
}

/** Whether a sub-chat of this chat is still at work (a delegation of the browser flow, or a retried attempt). */
export async function hasRunningSubChat(db: Database, parentChatId: string): Promise<boolean> {
  const rows = await db
    .select({ id: chat.id })
    .from(chat)
    .where(and(eq(chat.parentChatId, parentChatId), subChatAtWork()))
    .limit(1);
  return rows.length > 0;
}

/** Marks a sub-chat cancelled, unless it has already ended. */
export async function cancelRunningSubChat(db: Database, id: string, result: string): Promise<void> {
  await db
    .update(chat)
    .set({ outcome: 'cancelled', delegateResult: result })
    .where(and(eq(chat.id, id), subChatAtWork()));
}

/** After a run: usage totals, activity time, and for a sub-chat how its task ended. */
export async function recordTurnEnd(
  db: Database,
  chatId: string,
  end: {
    inputTokens: number;
    outputTokens: number;
    outcome?: { outcome: DelegationOutcome; result: string };
    /** Leave a sub-chat that already ended as it is (recovery after a crash). */
    onlyIfRunning?: boolean;
  },
): Promise<void> {
  await db
    .update(chat)
    .set({
      inputTokens: sql`${chat.inputTokens} + ${end.inputTokens}`,
      outputTokens: sql`${chat.outputTokens} + ${end.outputTokens}`,
      updatedAt: new Date(),
      ...(end.outcome ? { outcome: end.outcome.outcome, delegateResult: sanitizeText(end.outcome.result) } : {}),
    })
    .where(end.onlyIfRunning ? and(eq(chat.id, chatId), subChatAtWork()) : eq(chat.id, chatId));
}

/** A sub-agent's note, appended in one statement (notes written at once by parallel steps all stay). */
export async function appendNote(db: Database, chatId: string, text: string): Promise<void> {
  const note = { text: cutText(sanitizeText(text), MAX_NOTE_CHARS), createdAt: new Date().toISOString() };
  await db
    .update(chat)
    .set({ notes: sql`${chat.notes} || ${JSON.stringify([note])}::jsonb` })
    .where(eq(chat.id, chatId));
}
