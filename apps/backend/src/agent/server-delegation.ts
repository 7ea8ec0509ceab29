import { DELEGATION_BATCH_LIMIT, type NewTaskInput, type NewTaskOutput } from '@baton/schemas';
import type { Tool, ToolExecutionOptions } from 'ai';
import { errorTextForUser } from '../error-text';
import { newId } from '../ids';
import { findAgent } from '../services/agents';
import { batchLimitOutput, outcomeToOutput, serverNewTaskTool } from './delegation';
import { startTurn } from './runs/execute-run';
import { createSubChat } from './sub-chats';
import type { SubAgentListing } from './system-prompt';
import { generateMessageId, type ChatRow, type RuntimeDeps } from './turn';

/** What a REST client streaming the turn sees while a sub-agent works (a preliminary tool output). */
export interface SubAgentProgress {
  status: 'running';
  subChatId: string;
  steps: number;
  preview: string;
}

const PROGRESS_INTERVAL_MS = 250;

interface ServerDelegationContext {
  workspaceId: string;
  parentChat: ChatRow;
  subAgents: SubAgentListing[];
  /** The parent run's signal: its stop, shutdown or loss reaches the sub-agents with the same reason. */
  abortSignal: AbortSignal;
  /** Every sub-agent run started, so the parent's end can wait until their outcomes are stored. */
  subRuns: Promise<unknown>[];
}

/**
 * `newTask` for REST clients: the backend runs the sub-agent itself, with the same tools,
 * prompt and limits as the browser flow, and stores the sub-chat the same way.
 */
export function createServerNewTaskTool(deps: RuntimeDeps, ctx: ServerDelegationContext): Tool {
  // Calls of one step share the same prompt, so its length identifies the step.
  const startedPerStep = new Map<number, number>();

  return serverNewTaskTool(ctx.subAgents, async function* (input: NewTaskInput, options: ToolExecutionOptions<unknown>) {
    const step = options.messages.length;
    const index = startedPerStep.get(step) ?? 0;
    startedPerStep.set(step, index + 1);
    if (index >= DELEGATION_BATCH_LIMIT) {
      yield batchLimitOutput();
      return;
    }
    try {
      yield* runSubAgent(deps, ctx, input, options.toolCallId);
    } catch (err) {
      yield { result: `The sub-agent could not run: ${errorTextForUser(err)}`, status: 'error', subChatId: null } satisfies NewTaskOutput;
    }
  });
}

async function* runSubAgent(
  deps: RuntimeDeps,
  ctx: ServerDelegationContext,
  input: NewTaskInput,
  toolCallId: string,
): AsyncGenerator<NewTaskOutput | SubAgentProgress> {
  const listed = ctx.subAgents.find((a) => a.id === input.subAgentId);
  const subAgent = listed && (await findAgent(deps.db, ctx.workspaceId, listed.id));
  if (!subAgent) {
    const names = ctx.subAgents.map((a) => `${a.name} (${a.id})`).join(', ');
    yield { result: `There is no sub-agent with id "${input.subAgentId}". Available: ${names}.`, status: 'error', subChatId: null };
    return;
  }
  const born = await deps.db.transaction((tx) =>
    createSubChat(tx, {
      workspaceId: ctx.workspaceId,
      parentChat: ctx.parentChat,
      toolCallId,
      subAgent,
      task: input.task,
      chatId: newId('chat'),
      firstMessageId: generateMessageId(),
      mode: 'server',
      owner: deps.runs.owner,
    }),
  );
  const turn = startTurn(deps, {
    workspaceId: ctx.workspaceId,
    chat: born.chat,
    agent: subAgent,
    history: [born.task],
    mode: 'server',
    run: born.run,
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
      yield { status: 'running', subChatId: born.chat.id, steps, preview: text };
    }
    const result = await turn.result;
    yield outcomeToOutput(result.subChat ?? { status: 'error', result: `The sub-agent failed: ${result.error?.message ?? 'unknown error'}` }, born.chat.id);
  } finally {
    events.cancel();
    ctx.abortSignal.removeEventListener('abort', forward);
  }
}
