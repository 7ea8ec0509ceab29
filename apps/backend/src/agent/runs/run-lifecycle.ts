// The run lifecycle, in one place (docs/architecture.md draws it): the only module that
// inserts a run — `admitRun` for a chat that exists, `admitRunInNewChat` / `admitFirstRun`
// for one born in the same transaction or statement — and the only one that changes a run's
// status, always as a compare-and-set transition `from` → `to` that changes nothing when the
// run is no longer in `from` (whoever moves it first wins; the others learn it from the result).
import type { BatonUIMessage, DelegationOutcome, TokenUsage } from '@baton/schemas';
import { and, eq, getTableColumns, sql, type AnyColumn } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { chat, message, run, type RunStatus } from '../../db/schema';
import { violatedUniqueConstraint } from '../../db/unique-violation';
import { AppError, invalidRequest, notFound } from '../../errors';
import { generateMessageId, newId } from '../../ids';
import { preparedQuery } from '../../db/prepared-query';
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

/** What a run's end records besides the run itself, in the same statement. */
export interface RunEndRecord {
  /** The run's chat: it counts the tokens the end adds, and is marked as updated. */
  chatId: string;
  /** The run's final message, stored (or its snapshot replaced). */
  message?: BatonUIMessage;
  /** A sub-chat's outcome, which its parent receives. */
  outcome?: { outcome: DelegationOutcome; result: string };
}

const col = (c: AnyColumn) => sql.identifier(c.name);
const jsonb = (value: unknown) => (value == null ? sql`null::jsonb` : sql`${JSON.stringify(sanitizeDeep(value))}::jsonb`);

/**
 * Ends a running run, once: whoever moves it from `running` (the process that ran it, or the
 * recovery of another replica) owns the final write of its message. Its tokens and steps are
 * the totals given, never less than the snapshots already stored (recovery gives none: the
 * last snapshot's stay). Returns the tokens this adds to what the run had recorded, or
 * undefined when the run was not running any more (and then nothing is written).
 *
 * With `record`, the chat counts those tokens (as it counted the snapshots') and the final
 * message is stored, all in this one statement — the end of every answer is one round trip,
 * atomic without a transaction. The rows are locked in the writers' one order (runs, then
 * chats, then messages — see test/run-write-deadlocks.test.ts): each step reads the one
 * before, so Postgres cannot run them in another order.
 */
export async function endRun(
  db: Database,
  id: string,
  end: { status: NextStatus<'running'>; error?: string | null; inputTokens?: number; outputTokens?: number; steps?: number },
  record?: RunEndRecord,
): Promise<TokenUsage | undefined> {
  assertTransition('running', end.status);
  const chatEnd = record
    ? sql`, chat_end as (
        update ${chat} set
          ${col(chat.inputTokens)} = ${chat.inputTokens} + ended.added_input,
          ${col(chat.outputTokens)} = ${chat.outputTokens} + ended.added_output,
          ${col(chat.updatedAt)} = now()
          ${record.outcome ? sql`, ${col(chat.outcome)} = ${record.outcome.outcome}, ${col(chat.delegateResult)} = ${sanitizeText(record.outcome.result)}` : sql``}
        from ended where ${chat.id} = ${record.chatId}
        returning ${chat.id}
      )`
    : sql``;
  const m = record?.message;
  const stored = m
    ? sql`, stored as (
        insert into ${message} (${columnList(message.id, message.chatId, message.role, message.parts, message.metadata, message.seq, message.parentId)})
        select ${m.id}, chat_end.id, ${m.role}, ${jsonb(m.parts)}, ${jsonb(m.metadata)},
          (select coalesce(max(${message.seq}), 0) + 1 from ${message} where ${message.chatId} = chat_end.id and ${message.active}),
          (select ${message.id} from ${message} where ${message.chatId} = chat_end.id and ${message.active} order by ${message.seq} desc limit 1)
        from chat_end
        on conflict (${col(message.id)}) do update set ${col(message.parts)} = excluded.${col(message.parts)}, ${col(message.metadata)} = excluded.${col(message.metadata)}
          where ${message.chatId} = ${record.chatId}
      )`
    : sql``;
  const result = await db.execute(sql`
    with before as (
      select ${run.id} as id, ${run.inputTokens} as input_tokens, ${run.outputTokens} as output_tokens
      from ${run} where ${run.id} = ${id} and ${run.status} = 'running'
      for no key update
    ), ended as (
      update ${run} set
        ${col(run.status)} = ${end.status},
        ${col(run.error)} = ${end.error == null ? null : sanitizeText(end.error)},
        ${col(run.endedAt)} = now(),
        ${col(run.inputTokens)} = greatest(${run.inputTokens}, ${end.inputTokens ?? 0}::int),
        ${col(run.outputTokens)} = greatest(${run.outputTokens}, ${end.outputTokens ?? 0}::int),
        ${col(run.steps)} = greatest(${run.steps}, ${end.steps ?? 0}::int)
      from before where ${run.id} = before.id
      returning ${run.inputTokens} - before.input_tokens as added_input, ${run.outputTokens} - before.output_tokens as added_output
    )${chatEnd}${stored}
    select added_input, added_output from ended`);
  const [row] = (result as unknown as { rows: { added_input: number; added_output: number }[] }).rows;
  return row && { inputTokens: Number(row.added_input), outputTokens: Number(row.added_output) };
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

/** The columns a new top-level chat is given (the rest take their defaults). */
export type FirstChatValues = Pick<NewChatRow, 'id' | 'workspaceId' | 'userId' | 'agentId' | 'source' | 'apiKeyName'> & { title: string };

/**
 * The statement of admitFirstRun, built once per database handle (preparedQuery): building
 * it took drizzle more CPU than the rest of the request before the model call.
 */
const firstRunStatement = preparedQuery((db) => {
  const p = sql.placeholder;
  const newChat = db.$with('new_chat').as(
    db
      .insert(chat)
      .values({
        id: p('chatId'),
        workspaceId: p('workspaceId'),
        userId: p('userId'),
        agentId: p('agentId'),
        title: p('title'),
        source: p('source'),
        apiKeyName: p('apiKeyName'),
      })
      .onConflictDoNothing()
      .returning(),
  );
  const firstMessage = db.$with('first_message', { id: message.id }).as(
    sql`insert into ${message} (${columnList(message.id, message.chatId, message.role, message.parts, message.seq)})
      select ${p('messageId')}, new_chat.id, ${p('role')}, ${p('parts')}::jsonb, 1 from new_chat
      returning ${sql.identifier(message.id.name)}`,
  );
  const newRun = db.$with('new_run', getTableColumns(run)).as(
    sql`insert into ${run} (${columnList(run.id, run.chatId, run.workspaceId, run.kind, run.mode, run.messageId, run.owner)})
      select ${p('runId')}, new_chat.id, ${p('workspaceId')}, 'turn', ${p('mode')}, ${p('answerId')}, ${p('owner')} from new_chat
      returning *`,
  );
  // Every column of the table, read from the CTE that returned its row.
  const fields = <T extends object>(cte: object, columns: T) =>
    Object.fromEntries(Object.keys(columns).map((k) => [k, (cte as Record<string, unknown>)[k]])) as T;
  return db
    .with(newChat, firstMessage, newRun)
    .select({ chat: fields(newChat, getTableColumns(chat)), run: fields(newRun, getTableColumns(run)) })
    .from(newChat)
    .innerJoin(newRun, sql`true`)
    .prepare('admit_first_run');
});

/**
 * A new top-level chat with its first message and its first run, in one statement: no
 * transaction round trips stand between the browser's request and the model call. A taken
 * chat id is 409 (404 when it is someone else's chat) and writes nothing; a taken message
 * id is 400 and, the statement failing as a whole, writes nothing either.
 */
export async function admitFirstRun(
  deps: AdmitDeps,
  values: FirstChatValues,
  first: BatonUIMessage,
  admission: Omit<RunAdmission, 'history'>,
): Promise<TurnInput> {
  const { db } = deps;
  let rows: { chat: ChatRow; run: RunRow }[];
  try {
    rows = (await firstRunStatement(db).execute({
      chatId: values.id,
      workspaceId: values.workspaceId,
      userId: values.userId ?? null,
      agentId: values.agentId ?? null,
      title: values.title,
      source: values.source ?? 'app',
      apiKeyName: values.apiKeyName ?? null,
      messageId: first.id,
      role: first.role,
      parts: JSON.stringify(sanitizeDeep(first.parts)),
      runId: newId('run'),
      mode: admission.mode,
      answerId: generateMessageId(),
      owner: deps.runs.owner,
    })) as unknown as { chat: ChatRow; run: RunRow }[];
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
