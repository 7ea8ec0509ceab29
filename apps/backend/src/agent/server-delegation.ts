import { BATCH_LIMIT_RESULT, CANCELLED_RESULT, createLimiter, isBeyondBatchLimit, NO_USAGE, toNewTaskOutput } from '@baton/delegation';
import type { BatonUIMessage, NewTaskInput, NewTaskOutput, SubAgentProgress } from '@baton/schemas';
import type { Tool, ToolExecutionOptions } from 'ai';
import { errorTextForUser } from '../error-text';
import { newId } from '../ids';
import type { AgentRow } from '../services/agents';
import { cancelRunningSubChat, findChatById } from '../services/chats';
import { settleAwaitingRuns } from '../services/pending-approvals';
import { findActiveRun } from '../services/runs';
import { delegateContext } from './delegate-context';
import { serverNewTaskTool } from './delegation';
import { outputForSubChat, planSubAgent, type DelegationTree } from './delegation-tree';
import { startTurn } from './runs/execute-run';
import { signalStop } from './runs/run-control';
import { createSubChat } from './sub-chats';
import type { SubAgentListing } from './system-prompt';
import { generateMessageId, type ChatRow, type RuntimeDeps } from './turn';
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
  /** Each final output, for the parent message's delegated usage. */
  onOutput: (output: NewTaskOutput) => void;
  /** Each call waits for a person's decision first (the root's `requireApproval`). */
  needsApproval?: boolean;
}

const refused = (result: string) => toNewTaskOutput({ outcome: 'error', result, subChatId: null });

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

  return serverNewTaskTool(
    ctx.subAgents,
    async function* (input: NewTaskInput, options: ToolExecutionOptions<unknown>) {
      const step = options.messages.length;
      const indexInStep = startedPerStep.get(step) ?? 0;
      startedPerStep.set(step, indexInStep + 1);
      let output: NewTaskOutput;
      if (isBeyondBatchLimit({ indexInStep })) output = refused(BATCH_LIMIT_RESULT);
      else {
        const limiter = limiters.get(step) ?? createLimiter(ctx.tree.root.maxConcurrent);
        limiters.set(step, limiter);
        try {
          output = yield* runSubAgent(deps, ctx, input, options.toolCallId, limiter);
        } catch (err) {
          output = refused(`The sub-agent could not run: ${errorTextForUser(err)}`);
        }
      }
      ctx.onOutput(output);
      yield output;
    },
    { needsApproval: ctx.needsApproval },
  );
}

async function* runSubAgent(
  deps: RuntimeDeps,
  ctx: ServerDelegationContext,
  input: NewTaskInput,
  toolCallId: string,
  limiter: ReturnType<typeof createLimiter>,
): AsyncGenerator<SubAgentProgress, NewTaskOutput> {
  // The place in line is taken before the first await, so the calls of a step start in call
  // order (planning them awaits the database, whose answers may come back in any order).
  const slot = limiter.acquire();
  // A caller that did not get a slot waits in line (slots pass straight to the next waiting).
  const queued = limiter.waiting > 0;
  try {
    const planned = await planSubAgent(deps.db, ctx.workspaceId, ctx.parentAgent, ctx.tree, input.subAgentId);
    if ('refused' in planned) return refused(planned.refused);
    const { plan } = planned;
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
    const born = await deps.db.transaction((tx) =>
      createSubChat(tx, {
        workspaceId: ctx.workspaceId,
        parentChat: ctx.parentChat,
        toolCallId,
        subAgent: plan.agent,
        depth: plan.depth,
        effectiveToolIds: plan.effectiveToolIds,
        context,
        task: input.task,
        chatId: newId('chat'),
        firstMessageId: generateMessageId(),
        mode: 'server',
        owner: deps.runs.owner,
      }),
    );
    const meter = childMeter(ctx.meter, ctx.tree.root);
    record(meter, context.usage);
    const turn = startTurn(deps, {
      workspaceId: ctx.workspaceId,
      chat: born.chat,
      agent: plan.agent,
      history: [born.task],
      mode: 'server',
      run: born.run,
      meter,
    });
    ctx.subRuns.push(turn.result);
    const forward = () => deps.runs.abort(born.run.id, ctx.abortSignal.reason);
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
      if (ended.status === 'awaiting_approval') yield* whilePaused(deps, ctx, born.chat.id, steps, meter);
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

/** How often a paused sub-chat is looked at: decisions arrive as requests, possibly on another replica. */
const PAUSE_POLL_MS = 300;

/** A paused (or resumed) sub-chat whose answer above was stopped ends as cancelled; nothing is left to decide. */
async function endPaused(deps: RuntimeDeps, subChatId: string): Promise<void> {
  const active = await findActiveRun(deps.db, subChatId);
  if (active) await signalStop(deps, active);
  await cancelRunningSubChat(deps.db, subChatId, CANCELLED_RESULT);
  await settleAwaitingRuns(deps.db, subChatId);
}

/**
 * A sub-agent whose own `newTask` call waits for a person (the root's requireApproval): its
 * run ended `awaiting_approval` while its sub-chat still runs. The decision resumes it in a
 * new run (POST …/approvals on the sub-chat, any replica), so this waits — reporting
 * `awaiting_approval`, then `running` — until the sub-chat has ended. When the answer above
 * is stopped meanwhile, the paused sub-chat ends as cancelled before that answer's end is
 * stored (it is one of the answer's `subRuns`), so its call gets that outcome.
 */
async function* whilePaused(
  deps: RuntimeDeps,
  ctx: ServerDelegationContext,
  subChatId: string,
  steps: number,
  meter: UsageMeter,
): AsyncGenerator<SubAgentProgress, void> {
  let settle!: () => void;
  ctx.subRuns.push(new Promise<void>((resolve) => (settle = resolve)));
  // The SDK may stop pulling this generator on abort, so the cancellation does not wait for it.
  const onAbort = () => void endPaused(deps, subChatId).finally(settle);
  if (ctx.abortSignal.aborted) onAbort();
  else ctx.abortSignal.addEventListener('abort', onAbort, { once: true });
  let reported: SubAgentProgress['status'] | undefined;
  try {
    while (!ctx.abortSignal.aborted) {
      const row = await findChatById(deps.db, subChatId);
      if (!row || row.status !== 'running') return;
      const status = (await findActiveRun(deps.db, subChatId)) ? 'running' : 'awaiting_approval';
      if (status !== reported) {
        reported = status;
        yield { status, subChatId, steps, preview: '', usage: { ...meter.own } };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, PAUSE_POLL_MS);
        function done() {
          clearTimeout(timer);
          ctx.abortSignal.removeEventListener('abort', done);
          resolve();
        }
        ctx.abortSignal.addEventListener('abort', done, { once: true });
      });
    }
  } finally {
    ctx.abortSignal.removeEventListener('abort', onAbort);
    if (!ctx.abortSignal.aborted) settle();
  }
}
