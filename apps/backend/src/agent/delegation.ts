import {
  BATCH_LIMIT_RESULT,
  CANCELLED_RESULT,
  DELEGATION_BATCH_LIMIT,
  INTERRUPTED_SUB_AGENT_RESULT,
  NEW_TASK_TOOL,
  newTaskInputSchema,
  SUB_AGENT_MAX_STEPS,
  TASK_RESULT_TOOL,
  taskResultInputSchema,
  type NewTaskInput,
  type NewTaskOutput,
  type TaskResultInput,
} from '@baton/schemas';
import { hasToolCall, stepCountIs, tool, type StopCondition, type Tool, type ToolExecutionOptions, type UIMessage } from 'ai';
import type { Database } from '../db/client';
import { invalidRequest } from '../errors';
import { findAgent, findAgentsByIds, type AgentRow } from '../services/agents';
import { findChat, type ChatOwner, type ChatRow } from '../services/chats';
import { loadHistory } from '../services/messages';
import { subAgentLines, type SubAgentListing } from './system-prompt';

// The delegation rules of DESIGN §4, shared by the browser flow (client-side `newTask`)
// and the REST flow (the server runs the sub-agent itself).

export type DelegationMode = 'client' | 'server';

export function newTaskDescription(subAgents: SubAgentListing[]): string {
  return [
    'Hand a task to one of your sub-agents. It works in a fresh context and returns { result, status, subChatId }.',
    'Write the task complete and self-contained: the sub-agent sees nothing of this conversation.',
    'Available sub-agents:',
    subAgentLines(subAgents),
  ].join('\n');
}

/** `newTask` with no `execute`: the browser runs the sub-chat and supplies the output. */
export function clientNewTaskTool(subAgents: SubAgentListing[]): Tool {
  return tool({ description: newTaskDescription(subAgents), inputSchema: newTaskInputSchema });
}

export function serverNewTaskTool(
  subAgents: SubAgentListing[],
  // Preliminary outputs (progress) precede the final NewTaskOutput, the one the model sees.
  execute: (input: NewTaskInput, options: ToolExecutionOptions<unknown>) => AsyncIterable<unknown>,
): Tool {
  return tool({ description: newTaskDescription(subAgents), inputSchema: newTaskInputSchema, execute } as Tool);
}

export const taskResultTool: Tool = tool({
  description: 'Finish your task: report the complete result to the agent that delegated it. Call this exactly once, at the end.',
  inputSchema: taskResultInputSchema,
});

export function stopConditions(opts: { isSubChat: boolean; maxSteps: number }): StopCondition<any, any>[] {
  return opts.isSubChat ? [hasToolCall(TASK_RESULT_TOOL), stepCountIs(SUB_AGENT_MAX_STEPS)] : [stepCountIs(opts.maxSteps)];
}

/** The sub-agents a top-level chat's agent may delegate to, in its configured order. Sub-chats get none (depth 1). */
export async function loadSubAgents(db: Database, workspaceId: string, subAgentIds: string[]): Promise<SubAgentListing[]> {
  const byId = new Map((await findAgentsByIds(db, workspaceId, subAgentIds)).map((a) => [a.id, a]));
  return subAgentIds.flatMap((id) => {
    const agent = byId.get(id);
    return agent ? [{ id: agent.id, name: agent.name, description: agent.description }] : [];
  });
}

type ToolPart = { type: string; toolCallId: string; state: string; input?: unknown; output?: unknown };

export function newTaskCalls(message: UIMessage): ToolPart[] {
  return (message.parts as unknown as ToolPart[]).filter((p) => p.type === `tool-${NEW_TASK_TOOL}`);
}

/**
 * Whether a `newTask` call is past the batch limit: the calls of one step (between
 * `step-start` parts) beyond the first ten get an error output instead of running.
 */
export function isBeyondBatchLimit(message: UIMessage, toolCallId: string): boolean {
  let indexInStep = 0;
  for (const part of message.parts as unknown as ToolPart[]) {
    if (part.type === 'step-start') indexInStep = 0;
    else if (part.type === `tool-${NEW_TASK_TOOL}`) {
      if (part.toolCallId === toolCallId) return indexInStep >= DELEGATION_BATCH_LIMIT;
      indexInStep++;
    }
  }
  return false;
}

export const batchLimitOutput = (): NewTaskOutput => ({ result: BATCH_LIMIT_RESULT, status: 'error', subChatId: null });

/** How long a sub-chat start waits for its parent's step (with the call) to be stored. */
export const SUB_CHAT_WAIT_MS = 5_000;

/**
 * The checks before a sub-chat may start (browser flow): the parent is a top-level chat
 * of this workspace, its agent lists this sub-agent, and `parentToolCallId` names a
 * `newTask` call to this sub-agent that has no output yet and is within the batch limit.
 * The client may see the call a moment before the parent's step is stored, so a missing
 * call is awaited for up to `waitMs`. Returns what the sub-chat is born from.
 */
export async function validateSubChatStart(
  db: Database,
  owner: ChatOwner,
  req: { parentChatId: string; parentToolCallId?: string; agentId: string },
  waitMs = 0,
): Promise<{ parent: ChatRow; subAgent: AgentRow; task: NewTaskInput }> {
  const { workspaceId } = owner;
  const parent = await findChat(db, owner, req.parentChatId);
  if (!parent) throw invalidRequest(`parentChatId: chat "${req.parentChatId}" does not exist in this workspace`);
  if (parent.parentChatId) throw invalidRequest('parentChatId: a sub-chat cannot delegate further (depth is limited to 1)');
  if (!req.parentToolCallId) throw invalidRequest('parentToolCallId is required when parentChatId is given');
  const parentAgent = parent.agentId ? await findAgent(db, workspaceId, parent.agentId) : undefined;
  if (!parentAgent?.subAgentIds.includes(req.agentId)) {
    throw invalidRequest(`agentId: "${req.agentId}" is not a sub-agent of the parent chat's agent`);
  }
  const subAgent = await findAgent(db, workspaceId, req.agentId);
  if (!subAgent) throw invalidRequest(`agentId: agent "${req.agentId}" does not exist in this workspace`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const history = await loadHistory(db, parent.id);
    for (const message of history) {
      const call = newTaskCalls(message).find((p) => p.toolCallId === req.parentToolCallId);
      if (!call) continue;
      const input = newTaskInputSchema.safeParse(call.input);
      if (!input.success || input.data.subAgentId !== req.agentId) {
        throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" does not delegate to agent "${req.agentId}"`);
      }
      if (call.state !== 'input-available') {
        throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" already has an output`);
      }
      if (isBeyondBatchLimit(message, call.toolCallId)) {
        throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" is beyond the limit of ${DELEGATION_BATCH_LIMIT} parallel tasks`);
      }
      return { parent, subAgent, task: input.data };
    }
    if (Date.now() >= deadline) {
      throw invalidRequest(`parentToolCallId: no pending newTask call "${req.parentToolCallId}" in chat "${parent.id}"`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface SubChatOutcome {
  status: 'success' | 'error' | 'cancelled';
  result: string;
}

/** How a sub-chat's run ended, from its last message: `taskResult` called, or why not. */
export function subChatOutcome(
  responseMessage: UIMessage | undefined,
  end: { status: 'succeeded' | 'failed' | 'cancelled' | 'interrupted'; error?: string; steps: number },
): SubChatOutcome {
  const call = (responseMessage?.parts as unknown as ToolPart[] | undefined)?.find(
    (p) => p.type === `tool-${TASK_RESULT_TOOL}` && p.state !== 'input-streaming',
  );
  const parsed = taskResultInputSchema.safeParse(call?.input);
  if (parsed.success) return parsed.data satisfies TaskResultInput;
  if (end.status === 'cancelled') return { status: 'cancelled', result: CANCELLED_RESULT };
  if (end.status === 'interrupted') return { status: 'error', result: INTERRUPTED_SUB_AGENT_RESULT };
  if (end.error) return { status: 'error', result: `The sub-agent failed: ${end.error}` };
  if (end.steps >= SUB_AGENT_MAX_STEPS) {
    return { status: 'error', result: `The sub-agent stopped after ${SUB_AGENT_MAX_STEPS} steps without calling ${TASK_RESULT_TOOL}.` };
  }
  const lastText = (responseMessage?.parts ?? [])
    .flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('\n')
    .trim();
  return {
    status: 'error',
    result: `The sub-agent ended without calling ${TASK_RESULT_TOOL}.${lastText ? ` Its last words: ${lastText}` : ''}`,
  };
}

/** The output the delegating agent receives for a finished sub-chat. */
export function outcomeToOutput(outcome: SubChatOutcome, subChatId: string | null): NewTaskOutput {
  return { result: outcome.result, status: outcome.status === 'success' ? 'success' : 'error', subChatId };
}
