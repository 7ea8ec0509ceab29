// A remote A2A agent as the executor of a run: the same run (row, event log, message, end and
// outcome) a model's turn has, with the chunks made from the remote task's events instead of
// a model's stream. The run loop (runs/execute-run.ts) picks this for an agent with `remote`.
import { randomUUID } from 'node:crypto';
import { type Artifact, type Message, type Part, Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { usageSplit } from '@baton/delegation';
import { TASK_RESULT_TOOL, type BatonUIMessageChunk, type TaskResultInput, type TokenUsage } from '@baton/schemas';
import { A2A_CANCEL_TIMEOUT_MS, A2A_IDLE_TIMEOUT_MS, connectRemoteAgent, RemoteAgentError } from '../a2a-client/connect';
import { errorTextForUser } from '../error-text';
import { readRemoteHeaders } from '../services/remote-agents';
import { markSteeringDelivered, undeliveredSteering } from '../services/steering';
import type { RuntimeDeps, TurnInput, TurnObserver } from './runtime-types';

/** How often a task waiting for input looks for the person's answer (a steering message row). */
const STEERING_POLL_MS = 300;
/** Shown under the question of a task waiting for input: where the person answers. */
const INPUT_NOTE = '_The remote agent waits for your answer: send it as a message to this sub-agent._';

/** A remote agent reports no tokens: its usage is unknown, never 0. */
export const REMOTE_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, unknown: true };

const textOf = (parts: readonly Part[] | undefined): string =>
  (parts ?? [])
    .flatMap((p) => {
      const c = p.content;
      if (c?.$case === 'text') return [c.value];
      if (c?.$case === 'data') return [`\`\`\`json\n${JSON.stringify(c.value, null, 2)}\n\`\`\``];
      if (c?.$case === 'url') return [p.filename ? `[${p.filename}](${c.value})` : c.value];
      return [];
    })
    .join('\n\n');

function userMessage(text: string, ids: { taskId?: string; contextId?: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' } as Part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The task the sub-chat was given (its first message), with the context it was given before it. */
function taskText(input: TurnInput): string {
  const last = [...input.history].reverse().find((m) => m.role === 'user');
  const text = (last?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n');
  const context = input.chat.delegateContext;
  return context ? `Context from the conversation that delegated this task:\n${context}\n\nTask:\n${text}` : text;
}

const TERMINAL = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);

/**
 * The run's chunks: each status message and artifact of the remote task as a step of the
 * answer, the person's answers to `input-required` as steering messages, and — for a sub-chat
 * — a `taskResult` call with the final artifact (or message), as a local sub-agent ends.
 * Unreachable, failing or silent agents error the stream: the run fails with the reason.
 */
export async function streamRemoteTurn(
  deps: RuntimeDeps,
  input: TurnInput,
  signal: AbortSignal,
  observer: TurnObserver,
): Promise<ReadableStream<BatonUIMessageChunk>> {
  const { agent, run, chat } = input;
  const remote = agent.remote;
  if (!remote) throw new Error('not a remote agent');
  observer.describeError = errorTextForUser;
  observer.spent = REMOTE_USAGE;
  const idleMs = deps.a2aTimeoutMs ?? A2A_IDLE_TIMEOUT_MS;
  const local = new AbortController();
  const { client } = await connectRemoteAgent(deps.outbound.providerFetch, remote.cardUrl, readRemoteHeaders(deps.secrets, agent), signal);

  let taskId: string | undefined;
  let contextId: string | undefined;
  let state = TaskState.TASK_STATE_UNSPECIFIED;
  let cancelling: Promise<void> | undefined;
  const cancelRemote = () => {
    if (cancelling || !taskId || TERMINAL.has(state)) return;
    const id = taskId;
    cancelling = client
      .cancelTask({ tenant: '', id, metadata: undefined }, { signal: AbortSignal.timeout(A2A_CANCEL_TIMEOUT_MS) })
      .then(() => {})
      .catch(() => {});
    // The run's end waits for it, so the remote task is told before the run counts as stopped.
    observer.subRuns.push(cancelling);
  };
  // Stopped before the remote task had an id: the request goes on until the id arrives (or
  // for a few seconds at most), so the task can still be cancelled rather than left running.
  let stopping: NodeJS.Timeout | undefined;
  const onAbort = () => {
    if ((signal.reason as { kind?: string } | undefined)?.kind === 'pause') return;
    if (taskId) {
      cancelRemote();
      local.abort(signal.reason);
    } else stopping ??= setTimeout(() => local.abort(signal.reason), A2A_CANCEL_TIMEOUT_MS);
  };
  const tookId = () => {
    if (!signal.aborted || !stopping) return;
    clearTimeout(stopping);
    cancelRemote();
    local.abort(signal.reason);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  return new ReadableStream<BatonUIMessageChunk>({
    start: (controller) => {
      const emit = (chunk: BatonUIMessageChunk) => {
        if (!local.signal.aborted && !signal.aborted) controller.enqueue(chunk);
      };
      let part = 0;
      let steps = 0;
      const text = (words: string) => {
        const id = `remote-${run.id}-${part++}`;
        emit({ type: 'text-start', id });
        emit({ type: 'text-delta', id, delta: words });
        emit({ type: 'text-end', id });
      };
      const step = (words: string, note?: string) => {
        if (!words.trim() && !note) return;
        steps++;
        emit({ type: 'start-step' });
        if (words.trim()) text(words);
        if (note) text(note);
        emit({ type: 'finish-step' });
      };
      const asking = () => (state === TaskState.TASK_STATE_INPUT_REQUIRED ? INPUT_NOTE : undefined);
      // Stored with the message's next snapshot: should this process die, recovery can still
      // cancel the remote task (remote-task-recovery.ts) instead of leaving it to work for nobody.
      const tookTask = (id: string) => {
        if (!id || id === taskId) return;
        taskId = id;
        emit({ type: 'message-metadata', messageMetadata: { remoteTaskId: id } });
      };
      const run_ = async () => {
        emit({ type: 'start', messageId: run.messageId, messageMetadata: { agentId: agent.id, agentName: agent.name, startedAt: new Date().toISOString() } });
        const artifacts = new Map<string, Artifact>();
        let lastArtifactId: string | undefined;
        let finalText = '';
        let message = userMessage(taskText(input), {});
        for (;;) {
          for await (const event of idle(
            client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined }, { signal: local.signal }),
            idleMs,
            local,
          )) {
            const payload = event.payload;
            if (!payload) continue;
            if (payload.$case === 'message') {
              // A plain answer, no task: it is the result.
              finalText = textOf(payload.value.parts);
              state = TaskState.TASK_STATE_COMPLETED;
              continue;
            }
            if (payload.$case === 'task') {
              tookTask(payload.value.id);
              contextId = payload.value.contextId;
              state = payload.value.status?.state ?? state;
              for (const a of payload.value.artifacts) {
                artifacts.set(a.artifactId, a);
                lastArtifactId = a.artifactId;
              }
              const said = textOf(payload.value.status?.message?.parts);
              if (said) finalText = said;
              step(said, asking());
            } else if (payload.$case === 'statusUpdate') {
              tookTask(payload.value.taskId);
              contextId = payload.value.contextId;
              state = payload.value.status?.state ?? state;
              const said = textOf(payload.value.status?.message?.parts);
              if (said) finalText = said;
              step(said, asking());
            } else if (payload.$case === 'artifactUpdate') {
              tookTask(payload.value.taskId);
              contextId = payload.value.contextId;
              const a = payload.value.artifact;
              if (!a) continue;
              const before = artifacts.get(a.artifactId);
              artifacts.set(a.artifactId, payload.value.append && before ? { ...before, parts: [...before.parts, ...a.parts] } : a);
              lastArtifactId = a.artifactId;
              step(textOf(a.parts));
            }
            tookId();
          }
          if (state !== TaskState.TASK_STATE_INPUT_REQUIRED) break;
          // The person answers from the sub-chat (a steering message); it goes to the same task.
          const answer = await waitForSteering(deps, run.id, local.signal);
          await markSteeringDelivered(deps.db, answer.id, steps);
          emit({ type: 'steering-message', id: answer.id, parts: [{ type: 'text', text: answer.text }] });
          message = userMessage(answer.text, { taskId, contextId });
        }
        const artifact = lastArtifactId ? textOf(artifacts.get(lastArtifactId)?.parts) : '';
        const result = endOf(state, artifact || finalText);
        if (chat.parentChatId) {
          emit({ type: 'start-step' });
          emit({ type: 'tool-input-available', toolCallId: `remote-${run.id}`, toolName: TASK_RESULT_TOOL, input: result });
          emit({ type: 'finish-step' });
        } else {
          step(result.result);
        }
        emit({
          type: 'finish',
          finishReason: 'stop',
          messageMetadata: {
            agentId: agent.id,
            agentName: agent.name,
            usage: usageSplit(REMOTE_USAGE, { inputTokens: 0, outputTokens: 0 }),
            finishReason: 'stop',
          },
        });
      };
      // The reader may have cancelled the stream first (a stop): then there is nothing to close.
      const settle = (end: () => void) => {
        signal.removeEventListener('abort', onAbort);
        try {
          end();
        } catch {}
      };
      run_()
        .then(() => settle(() => controller.close()))
        .catch((err) =>
          settle(() => {
            if (local.signal.aborted && signal.aborted) return controller.close();
            controller.error(local.signal.reason instanceof RemoteAgentError ? local.signal.reason : describeRemote(err));
          }),
        );
    },
    // The run loop cancels its reader on a stop: the abort listener above does the rest.
    cancel: () => onAbort(),
  });
}

/** How the remote task ended, as the `taskResult` a local sub-agent would have called. */
function endOf(state: TaskState, text: string): TaskResultInput {
  if (state === TaskState.TASK_STATE_COMPLETED) return { status: 'success', result: text || '(the remote agent completed the task without a result)' };
  const why = text ? `: ${text}` : '';
  if (state === TaskState.TASK_STATE_FAILED) return { status: 'error', result: `The remote agent failed the task${why}` };
  if (state === TaskState.TASK_STATE_REJECTED) return { status: 'error', result: `The remote agent rejected the task${why}` };
  if (state === TaskState.TASK_STATE_CANCELED) return { status: 'error', result: `The remote agent cancelled the task${why}` };
  if (state === TaskState.TASK_STATE_AUTH_REQUIRED)
    return { status: 'error', result: `The remote agent asks for authentication Baton cannot give during a task${why}` };
  return { status: 'error', result: `The remote agent stopped answering before the task ended${why}` };
}

function describeRemote(err: unknown): Error {
  if (err instanceof RemoteAgentError) return err;
  const text = err instanceof Error ? err.message : String(err);
  return new RemoteAgentError(`The remote agent could not be reached or answered with an error: ${text.slice(0, 300)}`);
}

/** The remote task's events, failing when none comes for `ms` (the stream is aborted with the reason). */
async function* idle(events: AsyncGenerator<StreamResponse>, ms: number, local: AbortController): AsyncGenerator<StreamResponse> {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => local.abort(new RemoteAgentError(`The remote agent sent nothing for ${Math.round(ms / 1000)} s.`)), ms);
  };
  try {
    arm();
    for await (const event of events) {
      arm();
      yield event;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The person's answer to a task waiting for input: the run's first undelivered steering message. */
async function waitForSteering(deps: RuntimeDeps, runId: string, signal: AbortSignal): Promise<{ id: string; text: string }> {
  for (;;) {
    signal.throwIfAborted();
    const [next] = await undeliveredSteering(deps.db, runId, []);
    if (next) return { id: next.id, text: next.text };
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, STEERING_POLL_MS);
      signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
