import {
  type AgentCard,
  type CancelTaskRequest,
  type GetTaskRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import {
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { GENERAL_PURPOSE_ID, type BatonUIMessage } from '@baton/schemas';
import { prepareApiTurn } from '../agent/prepare-api-turn';
import { startTurn } from '../agent/runs/execute-run';
import type { RunEventReader } from '../agent/runs/run-channel';
import { readRun, waitForRunEnd } from '../agent/runs/run-control';
import type { AgentRow, RuntimeDeps, StartedTurn } from '../agent/runtime-types';
import { stopChat } from '../agent/stop-answer';
import { generateMessageId } from '../ids';
import { findAgentsByIds } from '../services/agents';
import { findChat } from '../services/chat-repository';
import type { WorkspaceAccess } from '../services/members';
import { latestRunForMessage } from '../services/runs';
import { asA2AError } from './errors';
import { RunEventsToA2A } from './run-events';
import { answerArtifact, findTask, isFinalState, status, storedTask, type TaskIds, userMessageOf } from './task-view';

/** How long a resubscribed stream waits for a run whose events ended to store its end. */
const RUN_END_WAIT_MS = 10_000;

/** A2A's text of a message: its text parts, and its data parts as JSON (files are not taken yet). */
function textOf(message: Message | undefined): string {
  if (!message) throw new RequestMalformedError('message: required');
  const texts = message.parts.map((part, i) => {
    const content = part.content;
    if (content?.$case === 'text') return content.value;
    if (content?.$case === 'data') return JSON.stringify(content.value);
    throw new ContentTypeNotSupportedError(`message.parts[${i}]: only text and data parts are taken (files are not, yet)`);
  });
  const text = texts.join('\n').trim();
  if (!text) throw new RequestMalformedError('message: has no text');
  return text;
}

/**
 * One published agent behind the SDK's `A2ARequestHandler`, for one caller (the API key's
 * user and workspace): the SDK's JSON-RPC transport parses the protocol and calls these
 * methods, which run Baton's own turns — a send is the REST/`/v1` API's server turn
 * (`prepareApiTurn` + `startTurn`, server-side delegation), a cancel is Stop — and read tasks
 * back from the database (task-view.ts). No state of its own: made per request.
 */
export class BatonA2AHandler implements A2ARequestHandler {
  constructor(
    private readonly deps: RuntimeDeps,
    private readonly access: WorkspaceAccess,
    private readonly agent: AgentRow,
    private readonly card: AgentCard,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError('this agent has no extended card');
  }

  async sendMessage(params: SendMessageRequest): Promise<Task> {
    return guarded(async () => {
      const started = await this.start(params);
      if (params.configuration?.returnImmediately) return this.workingTask(started.ids, started.userMessage);
      await started.turn.result;
      return storedTask(this.deps.db, this.access, this.agent, started.ids.taskId, params.configuration?.historyLength);
    });
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const started = await guarded(() => this.start(params));
    yield { payload: { $case: 'task', value: this.workingTask(started.ids, started.userMessage) } };
    yield* this.follow(started.ids, started.turn.local.channel.read(), started.turn.result);
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return guarded(() => storedTask(this.deps.db, this.access, this.agent, params.id, params.historyLength));
  }

  /** Stop on the task's chat (its run, and the sub-agents below it); a task that has ended, or waits for a person's decision, is not cancelable. */
  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    return guarded(async () => {
      const before = await storedTask(this.deps.db, this.access, this.agent, params.id);
      const state = before.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      if (isFinalState(state)) throw new TaskNotCancelableError(`task "${params.id}" has already ended`);
      await stopChat(this.deps, this.access, before.contextId);
      const after = await storedTask(this.deps.db, this.access, this.agent, params.id);
      if (after.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
        throw new TaskNotCancelableError(`task "${params.id}" waits for a person's decision in Baton: reject the delegation there to end it`);
      }
      return after;
    });
  }

  /** The task as stored, then — while an answer of it runs (here or on another replica) — its events live, then its end. */
  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const { task, running, reader } = await guarded(async () => {
      const { run, chat } = await findTask(this.deps.db, this.access, this.agent, params.id);
      const latest = await latestRunForMessage(this.deps.db, chat.id, run.messageId);
      const task = await storedTask(this.deps.db, this.access, this.agent, params.id);
      const running = latest?.status === 'running' ? latest : undefined;
      return { task, running, reader: running && readRun(this.deps, running, -1) };
    });
    yield { payload: { $case: 'task', value: task } };
    if (!running || !reader) return;
    // Its events may end a moment before its end is stored (on another replica too).
    yield* this.follow({ taskId: task.id, contextId: task.contextId }, reader, waitForRunEnd(this.deps, running.id, RUN_END_WAIT_MS));
  }

  async listTasks(): Promise<never> {
    throw new UnsupportedOperationError('tasks are not listed: the chats are, in Baton');
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError('push notifications are not supported: stream, or poll tasks/get');
  }

  getTaskPushNotificationConfig = this.createTaskPushNotificationConfig;
  listTaskPushNotificationConfigs = this.createTaskPushNotificationConfig;
  deleteTaskPushNotificationConfig = this.createTaskPushNotificationConfig;

  /** Stores the user's message in a new chat, or the chat `contextId` names, and starts the run (server-side delegation). */
  private async start(params: SendMessageRequest): Promise<{ ids: TaskIds; turn: StartedTurn; userMessage: BatonUIMessage }> {
    const text = textOf(params.message);
    const { contextId, taskId } = params.message!;
    if (taskId) {
      // A2A lets a client answer a task that asked for input; here input is a person's decision in Baton.
      await findTask(this.deps.db, this.access, this.agent, taskId);
      throw new UnsupportedOperationError(
        `message.taskId: a task takes no further messages (one waiting for input waits for a person's decision in Baton); send the message with contextId "${contextId || '…'}" and no taskId to continue the conversation`,
      );
    }
    if (contextId) {
      const chat = await findChat(this.deps.db, this.access, contextId);
      if (!chat || chat.agentId !== this.agent.id || chat.parentChatId) {
        throw new RequestMalformedError(`contextId "${contextId}" is not a conversation of this API key's user with this agent: omit it to start one`);
      }
    }
    const userMessage: BatonUIMessage = { id: generateMessageId(), role: 'user', parts: [{ type: 'text', text }] };
    const input = await prepareApiTurn(this.deps, this.access, { agent: this.agent, messages: [userMessage], chatId: contextId || undefined, titleText: text });
    const turn = startTurn(this.deps, input);
    return { ids: { taskId: input.run.id, contextId: input.chat.id }, turn, userMessage };
  }

  private workingTask(ids: TaskIds, userMessage: BatonUIMessage): Task {
    const task = { id: ids.taskId, contextId: ids.contextId, status: status(ids, TaskState.TASK_STATE_WORKING), artifacts: [] };
    return { ...task, history: [userMessageOf(ids, userMessage)], metadata: { batonChatId: ids.contextId } };
  }

  /**
   * A run's events as they come, then the task's end as stored: the whole answer as the
   * artifact (replacing what was streamed, so it is exactly what `tasks/get` returns) and the
   * final status. A client going away stops this reader only: the run goes on and is stored.
   */
  private async *follow(ids: TaskIds, reader: RunEventReader, result?: Promise<unknown>): AsyncGenerator<StreamResponse, void, undefined> {
    const translate = new RunEventsToA2A(ids, await this.subAgentNames());
    try {
      for (let batch = await reader.next(); batch; batch = await reader.next()) yield* translate.events(batch);
    } finally {
      reader.cancel();
    }
    await result;
    const task = await guarded(() => storedTask(this.deps.db, this.access, this.agent, ids.taskId, 0));
    const text = task.artifacts[0]?.parts[0]?.content;
    if (text?.$case === 'text') {
      yield {
        payload: { $case: 'artifactUpdate', value: { ...ids, artifact: answerArtifact(text.value), append: false, lastChunk: true, metadata: undefined } },
      };
    }
    yield { payload: { $case: 'statusUpdate', value: { ...ids, status: task.status, metadata: undefined } } };
  }

  private async subAgentNames(): Promise<Map<string, string>> {
    const rows = await findAgentsByIds(this.deps.db, this.agent.workspaceId, this.agent.subAgentIds);
    return new Map([[GENERAL_PURPOSE_ID, 'General-purpose agent'], ...rows.map((a) => [a.id, a.name] as [string, string])]);
  }
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asA2AError(err);
  }
}
