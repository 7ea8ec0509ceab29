import { BATCH_LIMIT_RESULT, conversationFiles, createLimiter, isBeyondBatchLimit, NO_USAGE, toNewTaskOutput } from '@baton/delegation';
import type { BatonUIMessage, NewTaskInput, NewTaskOutput, SubAgentProgress } from '@baton/schemas';
import type { Tool, ToolExecutionOptions } from 'ai';
import { errorTextForUser } from '../error-text';
import { delegationRefused, type DelegationRefusal } from '../ops/metrics';
import { generateMessageId, newId } from '../ids';
import type { AgentRow } from '../services/agents';
import { findChatById } from '../services/chats-by-id';
import { delegateContext } from './delegate-context';
import { serverNewTaskTool } from './delegation';
import { outputForSubChat, planSubAgent, type DelegationTree } from './delegation-tree';
import type { RunAbortReason } from './runs/run-registry';
import type { ChatRow, RuntimeDeps, StartRun } from './runtime-types';
import { cancelPausedSubChat } from './stop-answer';
import { createSubChat } from './sub-chats';
import { taskAttachments } from './task-files';
import type { SubAgentListing } from './system-prompt';
import { childMeter, record, type UsageMeter } from './usage-meter';

const PROGRESS_INTERVAL_MS = 250;

export interface ServerDelegationContext {
  workspaceId: string;
  parentChat: ChatRow;
  parentAgent: AgentRow;
  /** The delegating conversation (what `summary` and `full` context are made of). */
  parentHistory: BatonUIMessage[];
  tree: DelegationTree;
  subAgents: SubAgentListing[];
  meter: UsageMeter;
  /** The parent run's signal: its stop, shutdown or loss reaches the sub-agents with the same reason. */
  abortSignal: AbortSignal;
  /** Every sub-agent run started, so the parent's end can wait until their outcomes are stored. */
  subRuns: Promise<unknown>[];
  /** Starts each sub-agent's run: the run loop's own `startTurn`, passed down through the turn (no import, no cycle). */
  startRun: StartRun;
  /** Each final output, for the parent message's delegated usage. */
  onOutput: (output: NewTaskOutput) => void;
  /** Each call waits for a person's decision first (the root's `requireApproval`). */
  needsApproval?: boolean;
  /** Ends the parent run as paused (`awaiting_approval`): a sub-agent below waits for a person. */
  pause: () => void;
}

/** The calls of one step still at work, and those whose sub-agent paused for a person. */
interface StepCalls {
  working: number;
  paused: number;
}

/** What a call returns when its sub-agent paused: no output yet (it is handed on when the sub-chat ends). */
const PAUSED = Symbol('paused');

const refused = (result: string, reason: DelegationRefusal = 'rules') => {
  delegationRefused(reason);
  return toNewTaskOutput({ outcome: 'error', result, subChatId: null });
};

/**
 * `newTask` run by the backend itself (REST, and every sub-agent's own delegation): the
 * same rules, prompt and limits as the browser flow, the sub-chat stored the same way. The
 * calls of one step (a batch) run at most `maxConcurrent` at once; the others report
 * `queued` until they start.
 */
export function createServerNewTaskTool(deps: RuntimeDeps, ctx: ServerDelegationContext): Tool {
  // Calls of one step share the same prompt, so its length identifies the step.
  const startedPerStep = new Map<number, number>();
  const limiters = new Map<number, ReturnType<typeof createLimiter>>();
  const stepCalls = new Map<number, StepCalls>();

  return serverNewTaskTool(
    ctx.subAgents,
    async function* (input: NewTaskInput, options: ToolExecutionOptions<unknown>) {
      const step = options.messages.length;
      const indexInStep = startedPerStep.get(step) ?? 0;
      startedPerStep.set(step, indexInStep + 1);
      const calls = stepCalls.get(step) ?? { working: 0, paused: 0 };
      stepCalls.set(step, calls);
      calls.working++;
      let output: NewTaskOutput | typeof PAUSED;
      if (isBeyondBatchLimit({ indexInStep })) output = refused(BATCH_LIMIT_RESULT);
      else {
        const limiter = limiters.get(step) ?? createLimiter(ctx.tree.root.maxConcurrent);
        limiters.set(step, limiter);
        try {
          output = yield* runSubAgent(deps, ctx, input, options.toolCallId, limiter);
        } catch (err) {
          output = refused(`The sub-agent could not run: ${errorTextForUser(err)}`, 'failed');
        }
      }
      calls.working--;
      if (output === PAUSED) calls.paused++;
      // The answer pauses once every call of the step has its output or waits below: the
      // siblings' results are in the stored message, and nothing of this answer still runs.
      if (calls.paused > 0 && calls.working === 0) ctx.pause();
      if (output === PAUSED) {
        // No output: the call stays unfinished in the paused answer (the run is being aborted).
        await aborted(ctx.abortSignal);
        return;
      }
      ctx.onOutput(output);
      yield output;
    },
    { needsApproval: ctx.needsApproval, files: conversationFiles(ctx.parentHistory, ctx.workspaceId) },
  );
}

async function* runSubAgent(
  deps: RuntimeDeps,
  ctx: ServerDelegationContext,
  input: NewTaskInput,
  toolCallId: string,
  limiter: ReturnType<typeof createLimiter>,
): AsyncGenerator<SubAgentProgress, NewTaskOutput | typeof PAUSED> {
  // The place in line is taken before the first await, so the calls of a step start in call
  // order (planning them awaits the database, whose answers may come back in any order).
  const slot = limiter.acquire();
  // A caller that did not get a slot waits in line (slots pass straight to the next waiting).
  const queued = limiter.waiting > 0;
  try {
    const planned = await planSubAgent(deps.db, ctx.workspaceId, ctx.parentAgent, ctx.tree, input.subAgentId);
    if ('refused' in planned) return refused(planned.refused);
    const { plan } = planned;
    const attached = await taskAttachments(deps.db, ctx.parentChat, ctx.parentHistory, input.attachments, deps.files.limits.maxPerMessage);
    if ('refused' in attached) return refused(attached.refused);
    if (queued) yield { status: 'queued', subChatId: null, steps: 0, preview: '', usage: NO_USAGE };
    await slot;
    if (ctx.abortSignal.aborted) return toNewTaskOutput({ outcome: 'cancelled', result: 'Not run: the answer was stopped.', subChatId: null });
    const context = await delegateContext(
      deps,
      ctx.workspaceId,
      ctx.parentAgent,
      input.context ?? ctx.tree.root.contextMode,
      ctx.parentHistory,
      ctx.abortSignal,
    );
    const { input: born } = await deps.db.transaction((tx) =>
      createSubChat(tx, {
        workspaceId: ctx.workspaceId,
        parentChat: ctx.parentChat,
        toolCallId,
        subAgent: plan.agent,
        depth: plan.depth,
        effectiveToolIds: plan.effectiveToolIds,
        context,
        task: input.task,
        attachments: attached.files,
        chatId: newId('chat'),
        firstMessageId: generateMessageId(),
        mode: 'server',
        owner: deps.runs.owner,
      }),
    );
    const meter = childMeter(ctx.meter, ctx.tree.root);
    record(meter, context.usage);
    const turn = ctx.startRun(deps, { ...born, meter });
    ctx.subRuns.push(turn.result);
    // A pause of this answer is not the sub-agents' (they run on or are paused themselves).
    const forward = () => {
      if ((ctx.abortSignal.reason as RunAbortReason | undefined)?.kind !== 'pause') deps.runs.abort(born.run.id, ctx.abortSignal.reason);
    };
    if (ctx.abortSignal.aborted) forward();
    ctx.abortSignal.addEventListener('abort', forward, { once: true });
    const events = turn.local.channel.read();
    try {
      let lastReport = 0;
      let text = '';
      let steps = 0;
      for (let batch = await events.next(); batch; batch = await events.next()) {
        for (const { chunk } of batch) {
          if (chunk.type === 'text-delta') text = (text + chunk.delta).slice(-200);
          else if (chunk.type === 'start-step') steps++;
        }
        const now = Date.now();
        if (now - lastReport < PROGRESS_INTERVAL_MS) continue;
        lastReport = now;
        yield { status: 'running', subChatId: born.chat.id, steps, preview: text, usage: { ...meter.own } };
      }
      const ended = await turn.result;
      if (ended.status === 'awaiting_approval') {
        // Stopped meanwhile: the paused sub-chat ends with the answer, as cancelled.
        if (ctx.abortSignal.aborted) {
          const paused = await findChatById(deps.db, born.chat.id);
          if (paused) await cancelPausedSubChat(deps, paused);
        } else {
          yield { status: 'awaiting_approval', subChatId: born.chat.id, steps, preview: '', usage: { ...meter.own } };
          return PAUSED;
        }
      }
      const row = await findChatById(deps.db, born.chat.id);
      const output = row && (await outputForSubChat(deps.db, row, ctx.tree.root));
      return output ?? toNewTaskOutput({ outcome: 'error', result: 'The sub-agent’s end could not be stored.', subChatId: born.chat.id });
    } finally {
      events.cancel();
      ctx.abortSignal.removeEventListener('abort', forward);
    }
  } finally {
    // Handed on once it is ours, also by a call that ended before its turn came (refused, failed).
    void slot.then((release) => release());
  }
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
