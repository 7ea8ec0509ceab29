// The run lifecycle, in one place (docs/architecture.md draws it): the only module that
// inserts a run — `admitRun` for a chat that exists, `admitRunInNewChat` / `admitFirstRun`
// for one born in the same transaction or statement — and the only one that changes a run's
// status, always as a compare-and-set transition `from` → `to` that changes nothing when the
// run is no longer in `from` (whoever moves it first wins; the others learn it from the result).
import type { BatonUIMessage, TokenUsage } from '@baton/schemas';
import { and, eq, getTableColumns, sql, type AnyColumn } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { chat, message, run, type RunStatus } from '../../db/schema';
import { violatedUniqueConstraint } from '../../db/unique-violation';
import { AppError, invalidRequest, notFound } from '../../errors';
import { generateMessageId, newId } from '../../ids';
import { lockChat, takenChatId } from '../../services/chat-repository';
import { lockChatById } from '../../services/chats-by-id';
import type { ChatOwner, NewChatRow } from '../../services/chat-rows';
import { findActiveRun, type RunRow } from '../../services/runs';
import { sanitizeDeep, sanitizeText } from '../../services/text-hygiene';
import type { DelegationMode } from '../delegation';
import type { AgentRow, ChatRow, RuntimeDeps, TurnInput, TurnOverrides } from '../runtime-types';
import type { UsageMeter } from '../usage-meter';

/** Every move a run's status may make; a run is born `running`, and the last four are final. */
export const RUN_TRANSITIONS = {
  running: ['succeeded', 'failed', 'cancelled', 'interrupted', 'awaiting_approval'],
  awaiting_approval: ['succeeded', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
  interrupted: [],
} as const satisfies Record<RunStatus, readonly RunStatus[]>;

export type NextStatus<F extends RunStatus> = (typeof RUN_TRANSITIONS)[F][number];

/** A move the state machine does not have is a bug in the caller, not a race: it throws. */
function assertTransition(from: RunStatus, to: RunStatus): void {
  if (!(RUN_TRANSITIONS[from] as readonly RunStatus[]).includes(to)) throw new Error(`a run never goes from ${from} to ${to}`);
}

/**
 * Moves the runs (one by id, or a chat's) that are in `from` to `to`. Returns the ids it
 * moved: none when no run was in `from` any more (ended, recovered, settled by someone else).
 * A paused run settled by its continuation (`awaiting_approval` → `succeeded`) keeps the
 * time it paused as its end; a paused run cancelled ends now.
 */
export async function transitionRuns<F extends RunStatus>(
  db: Database,
  which: { runId: string } | { chatId: string },
  from: F,
  to: NextStatus<F>,
): Promise<string[]> {
  assertTransition(from, to);
  const target = 'runId' in which ? eq(run.id, which.runId) : eq(run.chatId, which.chatId);
  const keepsEnd = from === 'awaiting_approval' && to === 'succeeded';
  const rows = await db
    .update(run)
    .set(keepsEnd ? { status: to } : { status: to, endedAt: new Date() })
    .where(and(target, eq(run.status, from)))
    .returning({ id: run.id });
  return rows.map((r) => r.id);
}

/**
 * Ends a running run, once: whoever moves it from `running` (the process that ran it, or the
 * recovery of another replica) owns the final write of its message. Its tokens and steps are
 * the totals given, never less than the snapshots already stored (recovery gives none: the
 * last snapshot's stay). Returns the tokens this adds to what the run had recorded — which
 * the caller adds to the chat, as the snapshots did for theirs — or undefined when the run
 * was not running any more. The run row is locked first (lock order: runs, then chats, then
 * messages — see test/run-write-deadlocks.test.ts).
 */
export async function endRun(
  db: Database,
  id: string,
  end: { status: NextStatus<'running'>; error?: string | null; inputTokens?: number; outputTokens?: number; steps?: number },
): Promise<TokenUsage | undefined> {
  assertTransition('running', end.status);
  const running = and(eq(run.id, id), eq(run.status, 'running'));
  const [before] = await db
    .select({ inputTokens: run.inputTokens, outputTokens: run.outputTokens, steps: run.steps })
    .from(run)
    .where(running)
    .for('no key update');
  if (!before) return undefined;
  const inputTokens = Math.max(before.inputTokens, end.inputTokens ?? 0);
  const outputTokens = Math.max(before.outputTokens, end.outputTokens ?? 0);
  await db
    .update(run)
    .set({
      status: end.status,
      error: end.error == null ? null : sanitizeText(end.error),
      endedAt: sql`now()`,
      inputTokens,
      outputTokens,
      steps: Math.max(before.steps, end.steps ?? 0),
    })
    .where(running);
  return { inputTokens: inputTokens - before.inputTokens, outputTokens: outputTokens - before.outputTokens };
}

/** New runs are refused while the process shuts down (its running ones get their grace period). */
export function assertAccepting(deps: Pick<RuntimeDeps, 'runs'>): void {
  if (deps.runs.draining) throw new AppError(503, 'unavailable', 'the server is shutting down: try again in a moment');
}

export const chatBusy = (message = 'this chat is already answering: wait for it to finish, or stop it first') => new AppError(409, 'conflict', message);

/**
 * What an entry point admits: the agent that answers, the conversation it answers, and how
 * delegation runs. The run writes a new answer after the user message `history` ends with,
 * or continues the assistant message it ends with (its parts so far are the run's base, which
 * a resumed stream replays onto) — the same rule the run loop reads the history by.
 */
export interface RunAdmission {
  agent: AgentRow;
  history: BatonUIMessage[];
  mode: DelegationMode;
  overrides?: TurnOverrides;
  meter?: UsageMeter;
}

/**
 * The one statement that inserts a run. The partial unique index decides: of two runs for
 * one chat only one is `running` — the second insert waits for the first to commit and
 * then inserts nothing (undefined), on Postgres and PGlite alike.
 */
async function insertRun(tx: Database, runOwner: string, chat: ChatRow, admission: RunAdmission): Promise<TurnInput | undefined> {
  const last = admission.history.at(-1);
  const continued = last?.role === 'assistant' ? last : undefined;
  const [row] = await tx
    .insert(run)
    .values({
      id: newId('run'),
      chatId: chat.id,
      workspaceId: chat.workspaceId,
      kind: chat.parentChatId ? 'sub_agent' : 'turn',
      mode: admission.mode,
      messageId: continued?.id ?? generateMessageId(),
      basePartCount: continued?.parts.length ?? 0,
      owner: runOwner,
    })
    .onConflictDoNothing()
    .returning();
  return row && { workspaceId: chat.workspaceId, chat, run: row, ...admission };
}

/** Thrown inside an admission the server makes on its own, to leave (rolled back) without a run. */
const NOTHING = Symbol('admit nothing');

export interface Admitting {
  tx: Database;
  /** The chat, locked until the transaction ends. */
  chat: ChatRow;
  /** Refuses when the chat has a running run (called where the entry point's checks put it). */
  assertIdle(): Promise<void>;
  /** Inserts the running run (refused like assertIdle when another got there first) and returns the turn it executes. */
  admit(admission: RunAdmission): Promise<TurnInput>;
}

/** What admitting needs of the runtime: the database and this process's runs (whether it shuts down, its owner id). */
export type AdmitDeps = Pick<RuntimeDeps, 'db' | 'runs'>;

export interface AdmitOptions {
  /** By owner for a person's request; by id for the server's own continuation of an answer it ran. */
  chat: { owner: ChatOwner; id: string } | { id: string };
  /**
   * `request`: refusals are errors (503 shutting down, 404, 409 busy). `server` (an answer
   * continued on its own): a refusal admits nothing, quietly, and the result is undefined.
   */
  by: 'request' | 'server';
  /** What a person is told when the chat is answering already. */
  busy?: string;
}

/**
 * Admits a run on an existing chat: refused while shutting down, then one transaction that
 * first locks the chat row (`FOR NO KEY UPDATE`), so of two admissions at once the second
 * waits and then sees the first's run. The entry point's own checks and writes are `body`,
 * which calls `assertIdle` where they put it and `admit` to insert the run.
 */
export function admitRun<R>(deps: AdmitDeps, options: AdmitOptions & { by: 'request' }, body: (a: Admitting) => Promise<R>): Promise<R>;
export function admitRun<R>(deps: AdmitDeps, options: AdmitOptions, body: (a: Admitting) => Promise<R>): Promise<R | undefined>;
export async function admitRun<R>(deps: AdmitDeps, options: AdmitOptions, body: (a: Admitting) => Promise<R>): Promise<R | undefined> {
  const refuse = (err: AppError): never => {
    throw options.by === 'request' ? err : NOTHING;
  };
  if (deps.runs.draining) {
    if (options.by === 'server') return undefined;
    assertAccepting(deps);
  }
  try {
    return await deps.db.transaction(async (tx) => {
      const ref = options.chat;
      const chat = 'owner' in ref ? await lockChat(tx, ref.owner, ref.id) : await lockChatById(tx, ref.id);
      if (!chat) return refuse(notFound('Chat', ref.id));
      const assertIdle = async () => {
        if (await findActiveRun(tx, chat.id)) refuse(chatBusy(options.busy));
      };
      const admit = async (admission: RunAdmission) => (await insertRun(tx, deps.runs.owner, chat, admission)) ?? refuse(chatBusy(options.busy));
      return body({ tx, chat, assertIdle, admit });
    });
  } catch (err) {
    if (err === NOTHING) return undefined;
    throw err;
  }
}

/**
 * Admits the first run of a chat created in this same transaction (a sub-chat, a chat of
 * the OpenAI-compatible API): nobody else can see the chat yet, so there is nothing to lock
 * or to find running.
 */
export async function admitRunInNewChat(tx: Database, runOwner: string, chat: ChatRow, admission: RunAdmission): Promise<TurnInput> {
  return (await insertRun(tx, runOwner, chat, admission)) ?? Promise.reject(chatBusy(`chat "${chat.id}" is already running`));
}

/** Column names for an INSERT's column list (drizzle qualifies them with the table elsewhere). */
const columnList = (...columns: AnyColumn[]) =>
  sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );

/**
 * A new top-level chat with its first message and its first run, in one statement: no
 * transaction round trips stand between the browser's request and the model call. A taken
 * chat id is 409 (404 when it is someone else's chat) and writes nothing; a taken message
 * id is 400 and, the statement failing as a whole, writes nothing either.
 */
export async function admitFirstRun(
  deps: AdmitDeps,
  values: Omit<NewChatRow, 'parentChatId' | 'parentToolCallId'>,
  first: BatonUIMessage,
  admission: Omit<RunAdmission, 'history'>,
): Promise<TurnInput> {
  const { db } = deps;
  const newChat = db.$with('new_chat').as(db.insert(chat).values(values).onConflictDoNothing().returning());
  const firstMessage = db.$with('first_message', { id: message.id }).as(
    sql`insert into ${message} (${columnList(message.id, message.chatId, message.role, message.parts, message.seq)})
      select ${first.id}, new_chat.id, ${first.role}, ${JSON.stringify(sanitizeDeep(first.parts))}::jsonb, 1 from new_chat
      returning ${sql.identifier(message.id.name)}`,
  );
  const newRun = db.$with('new_run', getTableColumns(run)).as(
    sql`insert into ${run} (${columnList(run.id, run.chatId, run.workspaceId, run.kind, run.mode, run.messageId, run.owner)})
      select ${newId('run')}, new_chat.id, ${values.workspaceId}, 'turn', ${admission.mode}, ${generateMessageId()}, ${deps.runs.owner} from new_chat
      returning *`,
  );
  // Every column of the table, read from the CTE that returned its row.
  const fields = <T extends object>(cte: object, columns: T) =>
    Object.fromEntries(Object.keys(columns).map((k) => [k, (cte as Record<string, unknown>)[k]])) as T;
  let rows: { chat: ChatRow; run: RunRow }[];
  try {
    rows = (await db
      .with(newChat, firstMessage, newRun)
      .select({ chat: fields(newChat, getTableColumns(chat)), run: fields(newRun, getTableColumns(run)) })
      .from(newChat)
      .innerJoin(newRun, sql`true`)) as unknown as { chat: ChatRow; run: RunRow }[];
  } catch (err) {
    if (violatedUniqueConstraint(err) === 'message_pkey') throw invalidRequest(`message.id: message "${first.id}" already exists; history cannot be rewritten`);
    throw err;
  }
  const row = rows[0];
  if (!row)
    throw await takenChatId(
      db,
      { workspaceId: values.workspaceId, userId: values.userId ?? '' /* a chat from before accounts: no one's */ },
      values.id,
      `chat id "${values.id}" is already taken`,
    );
  return { workspaceId: row.chat.workspaceId, chat: row.chat, run: row.run, history: [first], ...admission };
}
