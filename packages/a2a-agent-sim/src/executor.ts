import { randomUUID } from 'node:crypto';
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';

/** What the scripted agent saw and did, for tests to check. */
export interface AgentLog {
  /** Each task's last state, by task id. */
  states: Map<string, TaskState>;
  /** Tasks a client asked to cancel. */
  cancelRequests: string[];
  /** The text of every message received, in order. */
  received: string[];
}

export interface ScriptOptions {
  /** Pause between the agent's events (default 150 ms). */
  stepMs: number;
}

const textOf = (m: Message) => m.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');

const agentMessage = (taskId: string, contextId: string, text: string): Message => ({
  messageId: randomUUID(),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/**
 * The script (the task's words decide):
 * - anything → "Working on: <task>", "Writing the answer", an artifact "Remote answer: <task>", completed;
 * - `ask` → input-required "Which format should the answer have?"; the next message of the same
 *   task is the format: "Got it: <format>", artifact "Remote answer: <task> (format: <format>)";
 * - `slow` → a status every step for about a minute, until cancelled;
 * - `fail` → failed with "The scripted agent failed on purpose.".
 */
export class ScriptedExecutor implements AgentExecutor {
  readonly log: AgentLog = { states: new Map(), cancelRequests: [], received: [] };
  private readonly cancelled = new Set<string>();
  /** The first message of each task waiting for input. */
  private readonly asked = new Map<string, string>();

  constructor(private readonly options: ScriptOptions) {}

  cancelTask = async (taskId: string, eventBus: ExecutionEventBus): Promise<void> => {
    this.log.cancelRequests.push(taskId);
    this.cancelled.add(taskId);
    // A task paused on input has no loop to notice: it ends here.
    if (this.asked.has(taskId)) {
      this.asked.delete(taskId);
      this.publishState(eventBus, taskId, '', TaskState.TASK_STATE_CANCELED, 'Cancelled.');
    }
  };

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const text = textOf(ctx.userMessage);
    this.log.received.push(text);
    const task: Task = ctx.task ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    const firstAsk = this.asked.get(taskId);
    this.asked.delete(taskId);
    const original = firstAsk ?? text;
    const say = (state: TaskState, words: string) => this.publishState(bus, taskId, contextId, state, words);
    const pause = () => new Promise((resolve) => setTimeout(resolve, this.options.stepMs));

    if (firstAsk === undefined) say(TaskState.TASK_STATE_WORKING, `Working on: ${original}`);
    else say(TaskState.TASK_STATE_WORKING, `Got it: ${text}`);
    await pause();
    if (/\bfail\b/i.test(original)) return say(TaskState.TASK_STATE_FAILED, 'The scripted agent failed on purpose.');
    if (/\bask\b/i.test(original) && firstAsk === undefined) {
      this.asked.set(taskId, original);
      return say(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which format should the answer have?');
    }
    const steps = /\bslow\b/i.test(original) ? 600 : 1;
    for (let i = 0; i < steps; i++) {
      if (this.cancelled.has(taskId)) return say(TaskState.TASK_STATE_CANCELED, 'Cancelled by the client.');
      say(TaskState.TASK_STATE_WORKING, steps > 1 ? `Still working (${i + 1})` : 'Writing the answer');
      await pause();
    }
    if (this.cancelled.has(taskId)) return say(TaskState.TASK_STATE_CANCELED, 'Cancelled by the client.');
    const answer = firstAsk === undefined ? `Remote answer: ${original}` : `Remote answer: ${original} (format: ${text})`;
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'answer',
          description: '',
          parts: [{ content: { $case: 'text', value: answer }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    this.log.states.set(taskId, TaskState.TASK_STATE_COMPLETED);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: new Date().toISOString(), message: undefined },
        metadata: undefined,
      }),
    );
  }

  private publishState(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, words: string) {
    this.log.states.set(taskId, state);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state, timestamp: new Date().toISOString(), message: agentMessage(taskId, contextId, words) },
        metadata: undefined,
      }),
    );
  }
}
