import type { Span } from '@opentelemetry/api';
import { addUsage, NO_USAGE, usageSplit } from '@baton/delegation';
import {
  readMessageMetadata,
  RUN_ERROR_PART,
  RUN_RETRY_PART,
  SUB_AGENT_MAX_STEPS,
  type RunErrorData,
  type TokenUsage,
  type BatonUIMessage,
  type BatonUIMessageChunk,
} from '@baton/schemas';
import { errorTextForUser, logError } from '../../error-text';
import { userMessageText } from '../answer-again';
import { nameChatWithModel } from '../chat-naming';
import { isToolsRefused } from '../model-errors';
import { isModelTimeout } from '../model-timeouts';
import type { SubChatEnd } from '../sub-chat-end';
import type { RuntimeDeps, StartedTurn, TurnInput, TurnObserver, TurnResult } from '../runtime-types';
import { streamTurn } from '../turn';
import { streamRemoteTurn } from '../remote-turn';
import { askForPartialResult, subChatEndOf } from './partial-result';
import { MessageBuilder } from './message-builder';
import type { LocalRun, RunAbortReason } from './run-registry';
import { settleAndStoreRunEnd, settlingChunks, storeSnapshot } from './run-end';
import { StorableChunks } from './storable-chunks';
import { AnswerCap, answerCutError } from './answer-cap';
import { DEFAULT_PROVIDER_LIMITS } from '../provider-limits';
import { TimeSlices } from '../time-slices';
import { interruptedError } from './unfinished-calls';
import { awaitingCalls } from '../../services/pending-approvals';
import { log } from '../../ops/logger';
import { runKindOf, runStarted, type RunMeter } from '../../ops/metrics';
import type { RunRow } from '../../services/runs';
import { endRunSpan, inRunSpan, traceClientCall } from './run-span';

/** How long a turn stopped while being prepared may take to close what it opened. */
const PREPARATION_GRACE_MS = 5_000;

/**
 * Executes a stored run: the model turn's chunks go to the run's event log (which every
 * reader of the run follows) and into the message, which is stored as steps end, now and
 * then mid-step, and at the end together with the run's final status. Whatever happens —
 * provider error, stop, shutdown — the run ends with its reason stored.
 */
export function startTurn(deps: RuntimeDeps, input: TurnInput): StartedTurn {
  const local = deps.runs.start(input.run);
  log.info(runFields(input.run), 'run started');
  // `/v1` turns are the ones with the caller's settings (overrides); REST turns have none.
  const meter = runStarted(runKindOf(input.run, input.overrides !== undefined));
  const result = inRunSpan(input, (span) => executeRun(deps, input, local, span, meter)).catch((err): TurnResult => {
    // Only a failing database gets here: the run stays `running` until recovery marks it.
    logError('a run could not store its end', err);
    deps.runs.end(local);
    meter.ended('failed');
    return { status: 'failed', error: { code: 'internal_error', message: 'The answer could not be stored.' }, steps: 0 };
  });
  local.finished = result;
  return { local, result };
}

async function executeRun(deps: RuntimeDeps, input: TurnInput, local: LocalRun, span: Span | undefined, meter: RunMeter): Promise<TurnResult> {
  const { run, chat } = input;
  // A new top-level chat's first answer: its title is written beside it (see chat-naming.ts).
  const [first, ...rest] = input.history;
  if (!chat.parentChatId && first?.role === 'user' && rest.length === 0) void nameChatWithModel(deps, chat.id, userMessageText(first));
  const signal = local.controller.signal;
  const continued = input.history.at(-1)?.role === 'assistant' ? input.history.at(-1) : undefined;
  const builder = new MessageBuilder(continued);
  // Until the model is resolved, failures are Baton's own (a database error says only that it happened).
  const observer: TurnObserver = { describeError: errorTextForUser, subRuns: [], spent: NO_USAGE };
  let started = false;
  let firstTokenOut = false;
  let steps = 0;
  let error: RunErrorData | undefined;
  // A sub-chat's answer may go on after the model's last step (its partial result): its finish waits.
  let deferredFinish: (BatonUIMessageChunk & { type: 'finish' }) | undefined;

  const storable = new StorableChunks();
  const cap = new AnswerCap((deps.providerLimits ?? DEFAULT_PROVIDER_LIMITS).maxAnswerChars, continued);
  const emit = (chunk: BatonUIMessageChunk) => {
    if (chunk.type === 'start') started = true;
    for (const clean of storable.clean(chunk)) {
      deps.runs.emit(local, clean);
      builder.push(clean);
    }
  };
  const fail = (data: RunErrorData) => {
    if (error) return;
    error = data;
    if (!started) emit({ type: 'start', messageId: run.messageId });
    emit({ type: RUN_ERROR_PART, data });
  };
  // Transient: shown while the provider is asked again, never stored in the message.
  observer.onRetry = (data) => {
    if (!started) emit({ type: 'start', messageId: run.messageId });
    emit({ type: RUN_RETRY_PART, data, transient: true });
  };
  const classify = (err: unknown): RunErrorData => ({
    code: isModelTimeout(err) ? 'timeout' : 'provider_error',
    message: isModelTimeout(err) ? err.message : observer.describeError(err),
  });

  let writes: Promise<unknown> = Promise.resolve();
  const snapshot = (message: Promise<BatonUIMessage | undefined>) => {
    // Read now, with the message: the tokens and steps its steps show.
    const spent = { ...observer.spent, steps };
    writes = writes.then(async () => storeSnapshot(deps.snapshots, run, await message, spent)).catch((err) => logError('storing a snapshot failed', err));
  };
  // At most one snapshot per interval (BATON_RUN_SNAPSHOT_MS), and always one within the interval after a chunk,
  // even when the provider then goes quiet (what arrived before a stall or crash is kept).
  let snapshotTimer: NodeJS.Timeout | undefined;
  const snapshotSoon = () => {
    snapshotTimer ??= setTimeout(() => {
      snapshotTimer = undefined;
      snapshot(builder.peek());
    }, deps.snapshots.intervalMs);
  };

  // Stop, shutdown or a lost run end the run whatever it waits on: the turn's preparation
  // (an MCP server connecting) is raced, and a pending read of its stream (a tool call, a
  // silent or stalled model) ends at once, its reader cancelled. What ignores the abort is
  // left behind instead of holding the run. (A pause is the turn's own doing, from one of its
  // tools: its stream winds down by itself.)
  let reader: ReadableStreamDefaultReader<BatonUIMessageChunk> | undefined;
  let forced = false;
  const stopped = new Promise<never>((_, reject) => {
    const onAbort = () => {
      if ((signal.reason as RunAbortReason | undefined)?.kind === 'pause') return;
      forced = true;
      reject(signal.reason);
      reader?.cancel(signal.reason).catch(() => {});
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => {});
  // A remote A2A agent is another executor of the same run: its task's events instead of a model's stream.
  const turn = input.agent.remote ? streamRemoteTurn(deps, input, signal, observer) : streamTurn(deps, input, signal, observer, startTurn);
  try {
    reader = (await Promise.race([turn, stopped])).getReader();
    // Tool results of a large step arrive together: relayed in slices, so other requests get their turns.
    const slices = new TimeSlices();
    for (;;) {
      let next: ReadableStreamReadResult<BatonUIMessageChunk>;
      try {
        // Awaited only when the slice is used up: an await per relayed word is a turn of promise jobs per word.
        if (slices.due) await slices.pause();
        next = await reader.read();
      } catch (err) {
        // Some failures (a connection that breaks off) error the stream instead of sending an error chunk.
        if (!signal.aborted) fail(classify(err));
        break;
      }
      if (next.done) break;
      const chunk = next.value;
      if (chunk.type === 'error') {
        // The reason is stored in the message as a part, so it is the same live and after a reload.
        fail(classify(observer.lastError ?? new Error(chunk.errorText)));
        continue;
      }
      if (chunk.type === 'finish' && chat.parentChatId) {
        deferredFinish = chunk;
        continue;
      }
      // A browser-run newTask call's span is stored before the browser can start its sub-chat.
      if (chunk.type === 'tool-input-available') await traceClientCall(deps.db, input, chunk);
      const admitted = cap.admit(chunk);
      for (const c of admitted.chunks) emit(c);
      if (admitted.cut) {
        // Nothing more of this answer is read: the model's call ends here.
        fail(answerCutError(cap.maxChars));
        await reader.cancel().catch(() => {});
        break;
      }
      if (!firstTokenOut && (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta' || chunk.type === 'tool-input-start')) {
        firstTokenOut = true;
        meter.firstToken();
        // A provider that sends its answer in one burst has all of it relayed in one run of
        // promise jobs, and Node writes to a socket only once they are done (it uncorks on
        // the next tick): one turn of the event loop lets the first token leave first.
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Steps as they start, as a transcript shows them (one `step-start` part each) and as
      // delegation blocks count them: a step cut off by a stop or a crash counts too.
      if (chunk.type === 'start-step') steps++;
      if (chunk.type === 'finish-step') {
        // Folded now, stored with the next snapshot or with the run's end, whichever comes
        // first: when the answer ends with this step, one write stores both.
        builder.commit().catch(() => {});
      }
      snapshotSoon();
    }
  } catch (err) {
    if (!signal.aborted) {
      // Before the model was reached (an agent's provider that cannot be resolved, …).
      fail({ code: 'internal_error', message: observer.describeError(err) });
    } else if (forced && !reader) {
      // Stopped while the turn was being prepared: its MCP listings stop too, and the sessions
      // already opened are closed. It gets a moment for that, then the run ends anyway (a
      // server still in its handshake is given up at the connect deadline, in the background).
      const settled = turn.then(
        (stream) => stream.cancel(signal.reason).catch(() => {}),
        () => {},
      );
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise((resolve) => (grace = setTimeout(resolve, PREPARATION_GRACE_MS)))]);
      clearTimeout(grace);
      void settled.then(() => observer.closeTools?.());
    }
  } finally {
    // The turn's MCP sessions end with its stream, whatever ended it (done, error, stop, shutdown).
    await observer.closeTools?.();
  }

  clearTimeout(snapshotTimer);
  const reason = signal.aborted ? (signal.reason as RunAbortReason | undefined) : undefined;
  let status: TurnResult['status'] =
    reason?.kind === 'shutdown' || reason?.kind === 'lost'
      ? 'interrupted'
      : reason?.kind === 'pause'
        ? // A sub-agent below waits for a person: this answer waits too, without running (paused-answers.ts).
          'awaiting_approval'
        : reason
          ? 'cancelled'
          : error
            ? 'failed'
            : 'succeeded';
  if (status === 'interrupted') fail(interruptedError);

  // Sub-agents end with their parent (same reason); their stored outcomes settle its calls.
  await Promise.allSettled(observer.subRuns);
  const unsettled = await builder.commit();
  // The answer ended on `newTask` calls a person must decide first: it pauses (see approvals.ts).
  if (status === 'succeeded' && awaitingCalls(unsettled).length > 0) status = 'awaiting_approval';
  // Calls the answer will never finish get their final outputs, live and stored alike.
  if (unsettled && status !== 'succeeded' && status !== 'awaiting_approval') {
    for (const chunk of await settlingChunks(deps.db, run, unsettled)) emit(chunk);
  }
  let usage = observer.spent;
  let outcome: SubChatEnd | undefined;
  if (chat.parentChatId && status !== 'awaiting_approval') {
    const facts = {
      status,
      error: error?.message,
      budgetExhausted: observer.meter?.exhausted,
      stepLimit: steps >= SUB_AGENT_MAX_STEPS,
      toolsRefused: isToolsRefused(observer.lastError),
    };
    const partial = await askForPartialResult(deps, { run, chat, observer, facts, message: await builder.commit(), emit, signal });
    usage = addUsage(usage, partial?.usage ?? NO_USAGE);
    outcome = await subChatEndOf(deps.db, chat.id, await builder.commit(), facts, partial);
    if (deferredFinish) emit(withOwnUsage(deferredFinish, partial?.usage));
  }
  // A paused sub-chat has not ended: its finish goes out now, its outcome comes when it resumes.
  if (deferredFinish && status === 'awaiting_approval') emit(deferredFinish);
  let message = await builder.commit();
  if (message && status === 'cancelled') message = { ...message, metadata: { ...message.metadata, stopped: true } };
  await writes;
  let stored = false;
  if (reason?.kind !== 'lost') {
    stored = await settleAndStoreRunEnd(deps.db, run, { status, error, message, usage, outcome, steps });
  }
  deps.runs.end(local);
  log.info(
    {
      ...runFields(run),
      status,
      steps,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      ...(error ? { errorCode: error.code } : {}),
      stored,
    },
    'run ended',
  );
  endRunSpan(span, { status, steps, usage, errorCode: error?.code });
  meter.ended(status, usage, observer.model, stored && outcome ? { outcome: outcome.outcome, depth: chat.depth } : undefined);
  // A paused answer above this sub-chat takes its output now; a pausing answer checks whether its sub-chats ended first
  // (paused-answers.ts, subscribed by the composition root).
  if (stored) deps.runs.runEnded({ run, chat, status });
  return { status, responseMessage: message, error, steps, subChat: outcome };
}

/** What a run's log lines say of it: ids and kind, never its content. */
const runFields = (run: RunRow) => ({ runId: run.id, chatId: run.chatId, workspaceId: run.workspaceId, kind: run.kind, mode: run.mode });

/** The finish chunk's metadata with the partial result's tokens added to the message's own usage. */
function withOwnUsage(finish: BatonUIMessageChunk & { type: 'finish' }, extra: TokenUsage | undefined): BatonUIMessageChunk {
  const metadata = readMessageMetadata(finish.messageMetadata);
  if (!extra || !metadata.usage) return finish;
  const { own, delegated } = metadata.usage;
  return { ...finish, messageMetadata: { ...metadata, usage: usageSplit(addUsage(own, extra), delegated) } };
}
