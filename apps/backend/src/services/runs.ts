import type { Run } from '@baton/schemas';
import { and, asc, desc, eq, getTableColumns, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { chat, run } from '../db/schema';
import { chatSubtree } from './chat-subtree';

export type RunRow = typeof run.$inferSelect;

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    chatId: row.chatId,
    kind: row.kind,
    status: row.status,
    messageId: row.messageId,
    basePartCount: row.basePartCount,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    error: row.error,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
  };
}

export async function findActiveRun(db: Database, chatId: string): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(run)
    .where(and(eq(run.chatId, chatId), eq(run.status, 'running')))
    .limit(1);
  return row;
}

/** The newest run that wrote a message (a second tab joins it instead of answering twice). */
export async function latestRunForMessage(db: Database, chatId: string, messageId: string): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(run)
    .where(and(eq(run.chatId, chatId), eq(run.messageId, messageId)))
    .orderBy(desc(run.startedAt))
    .limit(1);
  return row;
}

export async function findRun(db: Database, id: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(run).where(eq(run.id, id)).limit(1);
  return row;
}

/**
 * Keeps this process's runs alive. Returns the ones still running with whether someone
 * asked them to stop; a run missing from the answer was ended elsewhere (recovered as
 * interrupted by another replica) and must not write anything more.
 */
export async function heartbeatRuns(db: Database, ids: string[]): Promise<{ id: string; stopRequested: boolean }[]> {
  if (ids.length === 0) return [];
  // The rows are locked in id order, as the batched snapshots lock them (messages.ts): an
  // update in scan order would take them in another order and deadlock with a snapshot.
  const locked = db.$with('locked').as(
    db
      .select({ id: run.id })
      .from(run)
      .where(and(inArray(run.id, ids), eq(run.status, 'running')))
      .orderBy(asc(run.id))
      .for('no key update'),
  );
  const rows = await db
    .with(locked)
    .update(run)
    .set({ heartbeatAt: sql`now()` })
    .from(locked)
    .where(eq(run.id, locked.id))
    .returning({ id: run.id, stopRequestedAt: run.stopRequestedAt });
  return rows.map((r) => ({ id: r.id, stopRequested: r.stopRequestedAt !== null }));
}

export async function requestRunStop(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(run)
    .set({ stopRequestedAt: sql`now()` })
    .where(and(eq(run.id, id), eq(run.status, 'running')))
    .returning({ id: run.id });
  return rows.length > 0;
}

/**
 * The running runs of processes that stopped heartbeating (all running runs when
 * `staleAfterMs` is null: the embedded database has exactly one process). A process
 * heartbeats all its runs at once, so when one of them is stale the process is gone and
 * all of its runs are returned together — a parent with the sub-agents it ran in the same
 * turn. The database's clock decides, so replicas with skewed clocks agree.
 *
 * Deepest chats first: a run is repaired after every run below it in its delegation tree,
 * so each level's unfinished `newTask` call finds its sub-chat already ended and gets that
 * outcome (a depth-1 sub-agent waiting for its depth-2 one would otherwise keep the
 * "running" progress output for good).
 */
export async function findStaleRuns(db: Database, staleAfterMs: number | null): Promise<RunRow[]> {
  const running = eq(run.status, 'running');
  const deadOwners = db
    .selectDistinct({ owner: run.owner })
    .from(run)
    .where(and(running, lt(run.heartbeatAt, sql`now() - ${staleAfterMs ?? 0}::int * interval '1 millisecond'`)));
  return db
    .select(getTableColumns(run))
    .from(run)
    .innerJoin(chat, eq(chat.id, run.chatId))
    .where(staleAfterMs === null ? running : and(running, inArray(run.owner, deadOwners)))
    .orderBy(desc(chat.depth), asc(run.startedAt));
}

/** The running runs of a chat and of every chat below it (its sub-chats, at any depth). */
export async function activeRunsInTree(db: Database, chatId: string): Promise<RunRow[]> {
  const subtree = chatSubtree(db, chatId);
  return db
    .with(subtree.cte)
    .select()
    .from(run)
    .where(and(eq(run.status, 'running'), inArray(run.chatId, db.select({ id: subtree.id }).from(subtree.cte))));
}

/** The turns of a top-level chat that wrote one message, in order (a client tool loop continues one message in several). */
export async function turnRunsOfMessage(db: Database, chatId: string, messageId: string): Promise<RunRow[]> {
  return db
    .select()
    .from(run)
    .where(and(eq(run.chatId, chatId), eq(run.messageId, messageId), eq(run.kind, 'turn')))
    .orderBy(asc(run.basePartCount), asc(run.startedAt));
}

/** The chat's turn before the one started at `before` (the response a Responses call continued). */
export async function previousTurnRun(db: Database, chatId: string, before: Date): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(run)
    .where(and(eq(run.chatId, chatId), eq(run.kind, 'turn'), lt(run.startedAt, before)))
    .orderBy(desc(run.startedAt))
    .limit(1);
  return row;
}

/** Whether an answer of the chat is paused, waiting for a person's decision on its calls. */
export async function hasPausedRun(db: Database, chatId: string): Promise<boolean> {
  const rows = await db
    .select({ id: run.id })
    .from(run)
    .where(and(eq(run.chatId, chatId), eq(run.status, 'awaiting_approval')))
    .limit(1);
  return rows.length > 0;
}
