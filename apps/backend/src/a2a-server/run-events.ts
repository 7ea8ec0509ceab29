import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import { NEW_TASK_TOOL, type BatonUIMessageChunk, type NewTaskOutput, type SubAgentProgress } from '@baton/schemas';
import type { RunEvent } from '../agent/runs/run-channel';
import { TextDeltas } from '../openai-compat/run-sse';
import { ANSWER_ARTIFACT_ID, answerArtifact, status, type TaskIds } from './task-view';

/** A result quoted in a status message is cut here: the whole result is in the sub-chat. */
const MAX_RESULT_QUOTE = 300;

const quote = (text: string) => (text.length > MAX_RESULT_QUOTE ? `${text.slice(0, MAX_RESULT_QUOTE - 1)}…` : text);

interface CallSeen {
  name: string;
  lastStatus?: SubAgentProgress['status'];
}

/**
 * A run's UI message chunks as A2A stream events: the answer's text as it comes (appended
 * to the `answer` artifact), and what the agent does meanwhile as `working` status messages —
 * each delegation (server-side: the sub-agent's name and task), when its sub-agent starts, waits
 * and ends, and each other tool it uses. The run's end is not here: the caller reads it from
 * the database once stored (request-handler.ts), so a live stream and `tasks/get` agree.
 */
export class RunEventsToA2A {
  private readonly text = new TextDeltas();
  private wroteText = false;
  private readonly calls = new Map<string, CallSeen>();

  constructor(
    private readonly task: TaskIds,
    /** Sub-agent names by id: a status names the sub-agent, not its id. */
    private readonly agentNames: ReadonlyMap<string, string>,
  ) {}

  events(batch: RunEvent[]): StreamResponse[] {
    const out: StreamResponse[] = [];
    for (const { chunk } of batch) {
      const text = this.text.next(chunk);
      if (text) out.push(this.textEvent(text));
      const said = this.statusOf(chunk);
      if (said)
        out.push({
          payload: { $case: 'statusUpdate', value: { ...this.ids(), status: status(this.task, TaskState.TASK_STATE_WORKING, said), metadata: undefined } },
        });
    }
    return out;
  }

  private ids() {
    return { taskId: this.task.taskId, contextId: this.task.contextId };
  }

  private textEvent(text: string): StreamResponse {
    const append = this.wroteText;
    this.wroteText = true;
    const artifact = { ...answerArtifact(text), artifactId: ANSWER_ARTIFACT_ID };
    return { payload: { $case: 'artifactUpdate', value: { ...this.ids(), artifact, append, lastChunk: false, metadata: undefined } } };
  }

  private statusOf(chunk: BatonUIMessageChunk): string | undefined {
    if (chunk.type === 'tool-input-available') {
      if (chunk.toolName !== NEW_TASK_TOOL) return `Using the tool ${chunk.toolName}`;
      const input = (chunk.input ?? {}) as { subAgentId?: string; task?: string };
      const name = this.agentNames.get(input.subAgentId ?? '') ?? input.subAgentId ?? 'a sub-agent';
      this.calls.set(chunk.toolCallId, { name });
      return `Delegating to ${name}: ${input.task ?? ''}`;
    }
    const call = 'toolCallId' in chunk ? this.calls.get(chunk.toolCallId) : undefined;
    if (!call) return undefined;
    if (chunk.type === 'tool-output-error') return `${call.name} failed: ${quote(chunk.errorText)}`;
    if (chunk.type !== 'tool-output-available') return undefined;
    if (chunk.preliminary) {
      const progress = chunk.output as SubAgentProgress;
      if (progress.status === call.lastStatus) return undefined;
      call.lastStatus = progress.status;
      if (progress.status === 'running') return `${call.name} is working on it`;
      if (progress.status === 'awaiting_approval') return `${call.name} waits for a person to approve its own delegation`;
      return `${call.name} is queued`;
    }
    const output = chunk.output as NewTaskOutput;
    return `${call.name} finished (${output.status}): ${quote(output.result ?? '')}`;
  }
}
