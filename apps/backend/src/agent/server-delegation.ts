import { DELEGATION_BATCH_LIMIT, type NewTaskInput, type NewTaskOutput } from '@baton/schemas';
import { readUIMessageStream, type ToolExecutionOptions } from 'ai';
import type { Tool } from 'ai';
import { newId } from '../ids';
import { findAgent } from '../services/agents';
import { createChatWithFirstMessage, titleFromText } from '../services/chats';
import { batchLimitOutput, outcomeToOutput, serverNewTaskTool } from './delegation';
import type { SubAgentListing } from './system-prompt';
import { generateMessageId, startTurn, type ChatRow, type RuntimeDeps } from './turn';

/** What a REST client streaming the turn sees while a sub-agent works (a preliminary tool output). */
export interface SubAgentProgress {
  status: 'running';
  subChatId: string;
  steps: number;
  preview: string;
}

const PROGRESS_INTERVAL_MS = 250;

/**
 * `newTask` for REST clients: the backend runs the sub-agent itself, with the same tools,
 * prompt and limits as the browser flow, and stores the sub-chat the same way.
 */
export function createServerNewTaskTool(
  deps: RuntimeDeps,
  ctx: { workspaceId: string; parentChat: ChatRow; subAgents: SubAgentListing[]; abortSignal: AbortSignal },
): Tool {
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
      yield { result: `The sub-agent could not run: ${err instanceof Error ? err.message : String(err)}`, status: 'error', subChatId: null } satisfies NewTaskOutput;
    }
  });
}

async function* runSubAgent(
  deps: RuntimeDeps,
  ctx: { workspaceId: string; parentChat: ChatRow; subAgents: SubAgentListing[]; abortSignal: AbortSignal },
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
  const taskMessage = { id: generateMessageId(), role: 'user' as const, parts: [{ type: 'text' as const, text: input.task }] };
  const subChat = await createChatWithFirstMessage(
    deps.db,
    {
      id: newId('chat'),
      workspaceId: ctx.workspaceId,
      agentId: subAgent.id,
      title: titleFromText(`${subAgent.name}: ${input.task}`),
      parentChatId: ctx.parentChat.id,
      parentToolCallId: toolCallId,
      delegateTask: input.task,
      status: 'running',
    },
    taskMessage,
  );

  const turn = await startTurn(deps, {
    workspaceId: ctx.workspaceId,
    chat: subChat,
    agent: subAgent,
    history: [taskMessage],
    mode: 'server',
  });
  const stopSubAgent = () => void deps.runs.stop(subChat.id);
  ctx.abortSignal.addEventListener('abort', stopSubAgent, { once: true });
  try {
    let lastReport = 0;
    for await (const message of readUIMessageStream({ stream: turn.stream })) {
      const now = Date.now();
      if (now - lastReport < PROGRESS_INTERVAL_MS) continue;
      lastReport = now;
      const text = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');
      const steps = message.parts.filter((p) => p.type === 'step-start').length;
      yield { status: 'running', subChatId: subChat.id, steps, preview: text.slice(-200) };
    }
    const result = await turn.result;
    yield outcomeToOutput(result.subChat!, subChat.id);
  } finally {
    ctx.abortSignal.removeEventListener('abort', stopSubAgent);
  }
}
