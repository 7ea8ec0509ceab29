import { type Artifact, type Message, type Part, Role, type Task, TaskState, type TaskStatus } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { awaitingApprovalCalls } from '@baton/delegation';
import { RUN_ERROR_PART, type BatonUIMessage, type RunErrorData } from '@baton/schemas';
import type { AgentRow, ChatRow } from '../agent/runtime-types';
import type { Database } from '../db/client';
import type { RunStatus } from '../db/schema';
import { generateMessageId } from '../ids';
import { answerText } from '../openai-compat/completion';
import { findAgentsByIds } from '../services/agents';
import { findChat } from '../services/chat-repository';
import type { ChatOwner } from '../services/chat-rows';
import { loadHistory } from '../services/messages';
import { findRun, latestRunForMessage, type RunRow } from '../services/runs';

// A2A task ↔ Baton: the task is one answer of a chat of the key's user (its id: the id of the
// run that began the answer; its contextId: the chat's id). The answer may be written by more
// than one run (a delegation approved by a person goes on in a continuation run of the same
// message), so its state is the newest run's, always read from the database.

/** The artifact holding the answer's text: one per task. */
export const ANSWER_ARTIFACT_ID = 'answer';

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });

export function agentMessage(task: TaskIds, text: string): Message {
  return {
    messageId: generateMessageId(),
    contextId: task.contextId,
    taskId: task.taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function answerArtifact(text: string): Artifact {
  return { artifactId: ANSWER_ARTIFACT_ID, name: 'answer', description: "The agent's answer", parts: [textPart(text)], metadata: undefined, extensions: [] };
}

export interface TaskIds {
  taskId: string;
  contextId: string;
}

export const status = (task: TaskIds, state: TaskState, text?: string): TaskStatus => ({
  state,
  message: text === undefined ? undefined : agentMessage(task, text),
  timestamp: new Date().toISOString(),
});

const TASK_STATES: Record<RunStatus, TaskState> = {
  running: TaskState.TASK_STATE_WORKING,
  awaiting_approval: TaskState.TASK_STATE_INPUT_REQUIRED,
  succeeded: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  interrupted: TaskState.TASK_STATE_FAILED,
};

export const taskStateOf = (runStatus: RunStatus) => TASK_STATES[runStatus];

export const isFinalState = (state: TaskState) =>
  state === TaskState.TASK_STATE_COMPLETED || state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_CANCELED;

/**
 * What a state says to the client: why it failed, that it was stopped, or which delegations
 * wait for a person (approving happens in Baton: the web app or `POST …/approvals`).
 */
export async function statusText(
  db: Database,
  workspaceId: string,
  runStatus: RunStatus,
  message: BatonUIMessage | undefined,
  run: RunRow,
): Promise<string | undefined> {
  if (runStatus === 'failed' || runStatus === 'interrupted') {
    const note = message?.parts.findLast((p) => p.type === RUN_ERROR_PART) as { data?: RunErrorData } | undefined;
    return note?.data?.message ?? run.error ?? (runStatus === 'interrupted' ? 'The server stopped while the agent was answering.' : 'The answer failed.');
  }
  if (runStatus === 'cancelled') return 'The task was cancelled.';
  if (runStatus !== 'awaiting_approval') return undefined;
  const calls = awaitingApprovalCalls(message);
  const names = new Map(
    (
      await findAgentsByIds(
        db,
        workspaceId,
        calls.flatMap((c) => (c.input.subAgentId ? [c.input.subAgentId] : [])),
      )
    ).map((a) => [a.id, a.name]),
  );
  const waiting = calls.map((c) => `- ${names.get(c.input.subAgentId ?? '') ?? c.input.subAgentId ?? 'a sub-agent'}: ${c.input.task ?? ''}`);
  const lead = 'A delegation waits for a person to approve it in Baton (the chat in the web app, or the approvals API); the task goes on once it is decided.';
  return waiting.length > 0 ? `${lead}\n${waiting.join('\n')}` : lead;
}

/** A task of this agent in a chat of the key's user; anything else is not found (a task of another user or agent reveals nothing). */
export async function findTask(db: Database, owner: ChatOwner, agent: AgentRow, taskId: string): Promise<{ run: RunRow; chat: ChatRow }> {
  const run = taskId.includes('\u0000') ? undefined : await findRun(db, taskId);
  const chat = run?.kind === 'turn' && run.workspaceId === owner.workspaceId ? await findChat(db, owner, run.chatId) : undefined;
  if (!run || !chat || chat.agentId !== agent.id) throw new TaskNotFoundError(`task "${taskId}" was not found`);
  return { run, chat };
}

/** The task as the database holds it now: the state of the answer's newest run, its text as the artifact, the user message that asked. */
export async function storedTask(db: Database, owner: ChatOwner, agent: AgentRow, taskId: string, historyLength?: number): Promise<Task> {
  const { run, chat } = await findTask(db, owner, agent, taskId);
  const latest = (await latestRunForMessage(db, chat.id, run.messageId)) ?? run;
  const history = await loadHistory(db, chat.id);
  const at = history.findIndex((m) => m.id === run.messageId);
  const message = at >= 0 ? history[at] : undefined;
  const asked = at > 0 && history[at - 1]!.role === 'user' ? history[at - 1] : undefined;
  const ids = { taskId: run.id, contextId: chat.id };
  const text = answerText(message, run.basePartCount);
  const state = taskStateOf(latest.status);
  const said = await statusText(db, owner.workspaceId, latest.status, message, latest);
  return {
    id: run.id,
    contextId: chat.id,
    status: { ...status(ids, state, said), timestamp: (latest.endedAt ?? latest.startedAt).toISOString() },
    artifacts: text ? [answerArtifact(text)] : [],
    history: asked && historyLength !== 0 ? [userMessageOf(ids, asked)] : [],
    metadata: { batonChatId: chat.id, batonMessageId: run.messageId },
  };
}

/** A Baton user message as A2A's (its text parts). */
export function userMessageOf(ids: TaskIds, message: BatonUIMessage): Message {
  return {
    messageId: message.id,
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: Role.ROLE_USER,
    parts: message.parts.flatMap((p) => (p.type === 'text' ? [textPart(p.text)] : [])),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
