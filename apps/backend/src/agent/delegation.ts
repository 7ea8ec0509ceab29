import { isBeyondBatchLimit, newTaskCalls, NOTE_TOOL_DESCRIPTION, type ConversationFile } from '@baton/delegation';
import {
  DELEGATION_BATCH_LIMIT,
  GENERAL_PURPOSE_ID,
  newTaskInputSchema,
  noteInputSchema,
  SUB_AGENT_MAX_STEPS,
  TASK_RESULT_TOOL,
  taskResultInputSchema,
  type BatonFile,
  type BatonUIMessage,
  type NewTaskInput,
} from '@baton/schemas';
import { hasToolCall, stepCountIs, tool, type StepResult, type StopCondition, type Tool, type ToolExecutionOptions } from 'ai';
import type { Database } from '../db/client';
import { AppError, invalidRequest } from '../errors';
import { delegationRefused } from '../ops/metrics';
import { findAgent, type AgentRow } from '../services/agents';
import { findChat } from '../services/chat-repository';
import type { ChatOwner, ChatRow } from '../services/chat-rows';
import { loadHistory } from '../services/messages';
import { planSubAgent, treeOf, type DelegationTree, type SubAgentPlan } from './delegation-tree';
import { taskAttachments } from './task-files';
import { fileLines, subAgentLines, type SubAgentListing } from './system-prompt';

// The delegation tools both flows share: the browser flow (the top-level chat's client-side
// `newTask`) and the server flow (REST, and every sub-agent's own delegation); see
// docs/decisions/0004-one-delegation-core-two-flows.md.

export type DelegationMode = 'client' | 'server';

/** `newTask`'s description: the sub-agents it reaches and, when the conversation has files, the ids `attachments` may pass on. */
export function newTaskDescription(subAgents: SubAgentListing[], files: readonly ConversationFile[] = []): string {
  const lines = [
    'Hand a task to one of your sub-agents. It works in a fresh context and returns { result, status, subChatId, outcome, usage, truncated }.',
    'Write the task complete and self-contained: unless you pass `context`, the sub-agent sees nothing of this conversation.',
    'Available sub-agents:',
    subAgentLines(subAgents),
  ];
  if (files.length > 0) {
    lines.push(
      'Files in this conversation (pass their ids in `attachments` to give them to the sub-agent with its task; it sees no file you do not pass):',
      fileLines(files),
    );
  }
  return lines.join('\n');
}

/**
 * `needsApproval` (the root agent's `delegation.requireApproval`) is the AI SDK's own tool
 * approval: the step ends with the call in `approval-requested` and nothing is spent until
 * a person decides it (see approvals.ts).
 */
export interface NewTaskToolOptions {
  needsApproval?: boolean;
  /** The conversation's files, listed for `attachments`. */
  files?: readonly ConversationFile[];
}

/** `newTask` with no `execute`: the browser runs the sub-chat and supplies the output. */
export function clientNewTaskTool(subAgents: SubAgentListing[], opts: NewTaskToolOptions = {}): Tool {
  return tool({ description: newTaskDescription(subAgents, opts.files), inputSchema: newTaskInputSchema, needsApproval: opts.needsApproval || undefined });
}

export function serverNewTaskTool(
  subAgents: SubAgentListing[],
  // Preliminary outputs (progress) precede the final NewTaskOutput, the one the model sees.
  execute: (input: NewTaskInput, options: ToolExecutionOptions<unknown>) => AsyncIterable<unknown>,
  opts: NewTaskToolOptions = {},
): Tool {
  return tool({
    description: newTaskDescription(subAgents, opts.files),
    inputSchema: newTaskInputSchema,
    execute,
    needsApproval: opts.needsApproval || undefined,
  } as Tool);
}

export const taskResultTool: Tool = tool({
  description: 'Finish your task: report the complete result to the agent that delegated it. Call this exactly once, at the end.',
  inputSchema: taskResultInputSchema,
});

export function noteTool(save: (text: string) => Promise<void>): Tool {
  return tool({
    description: NOTE_TOOL_DESCRIPTION,
    inputSchema: noteInputSchema,
    execute: async ({ text }) => {
      await save(text);
      return { saved: true as const };
    },
  });
}

export function stopConditions(opts: {
  isSubChat: boolean;
  maxSteps: number;
  /** Given the steps so far: whether the next one would pass a budget. */
  overBudget?: (steps: readonly StepResult<any>[]) => boolean;
}): StopCondition<any, any>[] {
  if (!opts.isSubChat) return [stepCountIs(opts.maxSteps)];
  const stops: StopCondition<any, any>[] = [hasToolCall(TASK_RESULT_TOOL), stepCountIs(SUB_AGENT_MAX_STEPS)];
  const overBudget = opts.overBudget;
  if (overBudget) stops.push(({ steps }) => overBudget(steps));
  return stops;
}

/** How long a sub-chat start waits for its parent's step (with the call) to be stored. */
export const SUB_CHAT_WAIT_MS = 5_000;

export interface ValidatedStart {
  parent: ChatRow;
  parentAgent: AgentRow;
  parentHistory: BatonUIMessage[];
  /** The parent's tree: the root's settings govern the sub-chat too. */
  tree: DelegationTree;
  plan: SubAgentPlan;
  task: NewTaskInput;
  /** The parent's message holding the call (its batch). */
  callMessage: BatonUIMessage;
  /** The files the call gives the sub-agent (`taskAttachments`). */
  attachments: BatonFile[];
}

/**
 * The checks before a sub-chat may start (browser flow): the parent is a top-level chat
 * of this workspace (deeper delegation runs on the server), and `parentToolCallId` names
 * a `newTask` call to this sub-agent (or to general-purpose, which runs the parent's own
 * agent) that has no output yet, is within the batch limit, passes the tree's rules and
 * gives only files of the parent's conversation (at most `maxFiles`).
 * The client may see the call a moment before the parent's step is stored, so a missing
 * call is awaited for up to `waitMs`. Returns what the sub-chat is born from.
 */
export async function validateSubChatStart(
  db: Database,
  owner: ChatOwner,
  req: { parentChatId: string; parentToolCallId?: string; agentId: string },
  opts: { maxFiles: number; waitMs?: number },
): Promise<ValidatedStart> {
  const { workspaceId } = owner;
  const parent = await findChat(db, owner, req.parentChatId);
  if (!parent) throw invalidRequest(`parentChatId: chat "${req.parentChatId}" does not exist in this workspace`);
  if (parent.parentChatId) {
    throw invalidRequest('parentChatId: the browser starts only sub-chats of a top-level chat (depth 1); deeper delegation runs on the server');
  }
  if (!req.parentToolCallId) throw invalidRequest('parentToolCallId is required when parentChatId is given');
  const parentAgent = parent.agentId ? await findAgent(db, workspaceId, parent.agentId) : undefined;
  const generalPurpose = parentAgent?.id === req.agentId && parentAgent.delegation.generalPurpose;
  if (!parentAgent || (!parentAgent.subAgentIds.includes(req.agentId) && !generalPurpose)) {
    throw invalidRequest(`agentId: "${req.agentId}" is not a sub-agent of the parent chat's agent`);
  }
  const deadline = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    const history = await loadHistory(db, parent.id);
    let halfWritten = false;
    for (const message of history) {
      const call = newTaskCalls(message).find((c) => c.toolCallId === req.parentToolCallId);
      if (!call) continue;
      // A snapshot taken mid-step may still show the call half-written, while the browser
      // already saw it complete on the stream: wait for the step to be stored, as for a missing call.
      if (call.state === 'input-streaming') {
        halfWritten = true;
        continue;
      }
      const input = newTaskInputSchema.safeParse(call.input);
      const reaches = input.success && (input.data.subAgentId === req.agentId || (generalPurpose && input.data.subAgentId === GENERAL_PURPOSE_ID));
      if (!input.success || !reaches) {
        throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" does not delegate to agent "${req.agentId}"`);
      }
      // The server enforces approval: a call waiting for a person cannot be started by a browser.
      if (call.state === 'approval-requested') {
        throw new AppError(409, 'conflict', `parentToolCallId: call "${req.parentToolCallId}" is waiting for approval: approve it first`);
      }
      if (call.state !== 'input-available' && call.state !== 'approval-responded') {
        throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" already has an output`);
      }
      if (isBeyondBatchLimit(call)) {
        delegationRefused('rules');
        throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" is beyond the limit of ${DELEGATION_BATCH_LIMIT} parallel tasks`);
      }
      const tree = await treeOf(db, parent, parentAgent);
      const planned = await planSubAgent(db, workspaceId, parentAgent, tree, input.data.subAgentId);
      if ('refused' in planned) {
        delegationRefused('rules');
        throw invalidRequest(`agentId: ${planned.refused}`);
      }
      const attached = await taskAttachments(db, parent, history, input.data.attachments, opts.maxFiles);
      if ('refused' in attached) {
        delegationRefused('rules');
        throw invalidRequest(`attachments: ${attached.refused}`);
      }
      return { parent, parentAgent, parentHistory: history, tree, plan: planned.plan, task: input.data, callMessage: message, attachments: attached.files };
    }
    if (Date.now() >= deadline) {
      if (halfWritten) throw invalidRequest(`parentToolCallId: call "${req.parentToolCallId}" is still being written; try again when it is complete`);
      throw invalidRequest(`parentToolCallId: no pending newTask call "${req.parentToolCallId}" in chat "${parent.id}"`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
