import { NEW_TASK_TOOL, TASK_RESULT_TOOL } from '@baton/schemas';
import {
  convertToModelMessages,
  createIdGenerator,
  readUIMessageStream,
  streamText,
  toUIMessageStream,
  type LanguageModelUsage,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import type { Database } from '../db/client';
import type { AgentRow } from '../services/agents';
import { recordTurnEnd, type ChatRow } from '../services/chats';
import { upsertMessage } from '../services/messages';
import type { ActiveRuns } from './active-runs';
import { clientNewTaskTool, loadSubAgents, stopConditions, subChatOutcome, taskResultTool, type DelegationMode, type SubChatOutcome } from './delegation';
import { describeModelError } from './model-errors';
import { resolveModel, type DefaultModelConfig } from './models';
import { createServerNewTaskTool } from './server-delegation';
import { buildSystemPrompt } from './system-prompt';
import { toolsFor } from './tools/registry';

export interface RuntimeDeps {
  db: Database;
  defaultModel: DefaultModelConfig;
  runs: ActiveRuns;
}

export type { AgentRow, ChatRow };

export interface TurnInput {
  workspaceId: string;
  chat: ChatRow;
  agent: AgentRow;
  /** The whole conversation the model answers, ending with the new user message or the continued assistant message. */
  history: UIMessage[];
  mode: DelegationMode;
}

export interface TurnResult {
  responseMessage?: UIMessage;
  aborted: boolean;
  error?: string;
  steps: number;
  usage?: LanguageModelUsage;
  /** Set for sub-chats: how the delegated task ended. */
  subChat?: SubChatOutcome;
}

export interface Turn {
  /** The UI message stream for the client. The turn runs to the end even if nobody reads it. */
  stream: ReadableStream<UIMessageChunk>;
  result: Promise<TurnResult>;
}

export const generateMessageId = createIdGenerator({ prefix: 'msg', size: 16 });

const SNAPSHOT_INTERVAL_MS = 1_000;

type Usage = { inputTokens: number; outputTokens: number; totalTokens: number };

function addUsage(previous: unknown, usage: LanguageModelUsage): Usage {
  const prev = (previous ?? {}) as Partial<Usage>;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    inputTokens: (prev.inputTokens ?? 0) + input,
    outputTokens: (prev.outputTokens ?? 0) + output,
    totalTokens: (prev.totalTokens ?? 0) + input + output,
  };
}

const hasContent = (m: UIMessage) => m.parts.some((p) => p.type !== 'step-start');

/**
 * Some failures (a provider connection that breaks off) error the stream itself instead of
 * sending an error part. The client should still get a readable error part and a clean end.
 */
function endWithErrorPart(stream: ReadableStream<UIMessageChunk>, describe: (err: unknown) => string): ReadableStream<UIMessageChunk> {
  const reader = stream.getReader();
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        controller.enqueue({ type: 'error', errorText: describe(err) });
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Holds the end of the client's stream until the turn is stored, so a client that sends
 * its next request the moment the stream ends (an automatic resend) finds the chat idle.
 */
function closeAfter(stream: ReadableStream<UIMessageChunk>, finished: Promise<unknown>): ReadableStream<UIMessageChunk> {
  const reader = stream.getReader();
  let firstTokenSent = false;
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        await finished.catch(() => {});
        return controller.close();
      }
      controller.enqueue(value);
      if (!firstTokenSent && value.type === 'text-delta') {
        firstTokenSent = true;
        // Node corks a response's socket until the next tick; when a provider sends a burst,
        // the whole burst is relayed in one run of promise jobs and the first token would
        // leave with the last. One macrotask turn lets it go out now.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Runs one agent turn: model, tools and prompt for this chat, streamed as UI message
 * chunks, stored as steps finish and at the end. Both the browser endpoint and the REST
 * endpoint (and server-side sub-agents) run turns through here.
 */
export async function startTurn(deps: RuntimeDeps, input: TurnInput): Promise<Turn> {
  const { db } = deps;
  const { chat, agent, workspaceId } = input;
  const isSubChat = chat.parentChatId !== null;
  const controller = deps.runs.begin(chat.id);
  try {
    const subAgents = isSubChat ? [] : await loadSubAgents(db, workspaceId, agent.subAgentIds);
    const { model, modelId, redact } = await resolveModel(db, workspaceId, agent, deps.defaultModel);
    const describeError = (err: unknown) => redact(describeModelError(err));
    const tools: ToolSet = { ...toolsFor(agent.toolIds) };
    if (subAgents.length > 0) {
      tools[NEW_TASK_TOOL] =
        input.mode === 'client'
          ? clientNewTaskTool(subAgents)
          : createServerNewTaskTool(deps, { workspaceId, parentChat: chat, subAgents, abortSignal: controller.signal });
    }
    if (isSubChat) tools[TASK_RESULT_TOOL] = taskResultTool;

    const last = input.history.at(-1);
    const continued = last?.role === 'assistant' ? last : undefined;
    const startedAt = Date.now();
    let firstTokenAt: number | undefined;
    let steps = 0;
    let usage: LanguageModelUsage | undefined;
    let error: string | undefined;

    const result = streamText({
      model,
      system: buildSystemPrompt({ agentPrompt: agent.systemPrompt, subAgents, isSubChat }),
      messages: await convertToModelMessages(input.history, { tools, ignoreIncompleteToolCalls: true }),
      tools,
      stopWhen: stopConditions({ isSubChat, maxSteps: agent.maxSteps }),
      temperature: agent.temperature ?? undefined,
      abortSignal: controller.signal,
      onChunk: ({ chunk }) => {
        if (firstTokenAt === undefined && (chunk.type === 'text-delta' || chunk.type === 'tool-input-start')) firstTokenAt = Date.now();
      },
      onStepEnd: () => {
        steps++;
      },
      // Reported to the client through the stream; this only keeps the SDK from logging it.
      onError: () => {},
    });

    // Steps are stored in order, one write at a time, so a late write never overtakes a newer one.
    let writes = Promise.resolve();
    const store = (message: UIMessage) => {
      if (!hasContent(message)) return writes;
      writes = writes.then(() => upsertMessage(db, chat.id, message)).catch((err) => console.error('storing a message failed:', err));
      return writes;
    };

    const uiStream = toUIMessageStream({
      stream: result.stream,
      tools,
      originalMessages: input.history,
      generateMessageId,
      redactToolErrors: false,
      onError: (err) => (error = describeError(err)),
      messageMetadata: ({ part }) => {
        if (part.type === 'start') return { agentId: agent.id, modelId, startedAt: new Date(startedAt).toISOString() };
        if (part.type === 'finish') {
          usage = part.totalUsage;
          const previous = (continued?.metadata as { usage?: unknown } | undefined)?.usage;
          return {
            agentId: agent.id,
            modelId,
            usage: addUsage(previous, part.totalUsage),
            finishReason: part.finishReason,
            durationMs: Date.now() - startedAt,
            firstTokenMs: firstTokenAt === undefined ? null : firstTokenAt - startedAt,
          };
        }
        return undefined;
      },
      onStepEnd: ({ responseMessage }) => store(responseMessage),
    });

    // One branch for the client, one read here: a client that disconnects cancels only its
    // branch, and the turn still runs to its end and is stored.
    const safeStream = endWithErrorPart(uiStream, (err) => (error = describeError(err)));
    const [clientBranch, serverBranch] = safeStream.tee();
    const finished = (async (): Promise<TurnResult> => {
      let responseMessage: UIMessage | undefined;
      let savedAt = Date.now();
      let yielded = false;
      for await (const snapshot of readUIMessageStream({ message: continued, stream: serverBranch, terminateOnError: false })) {
        responseMessage = snapshot;
        if (!yielded) {
          // Bookkeeping must not hold up the client's first token (see closeAfter).
          yielded = true;
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Also mid-step, now and then: a reload mid-answer shows progress, a crash keeps it.
        if (Date.now() - savedAt >= SNAPSHOT_INTERVAL_MS) {
          savedAt = Date.now();
          void store(snapshot);
        }
      }
      const aborted = controller.signal.aborted;
      if (responseMessage) {
        if (error || aborted) {
          responseMessage.metadata = {
            ...(responseMessage.metadata as object | undefined),
            ...(error ? { error } : {}),
            ...(aborted ? { stopped: true } : {}),
          };
        }
        await store(responseMessage);
      }
      const outcome = isSubChat ? subChatOutcome(responseMessage, { aborted, error, steps }) : undefined;
      await recordTurnEnd(db, chat.id, { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0, outcome });
      return { responseMessage, aborted, error, steps, usage, subChat: outcome };
    })();
    deps.runs.track(chat.id, finished);
    return { stream: closeAfter(clientBranch, finished), result: finished };
  } catch (err) {
    deps.runs.end(chat.id);
    throw err;
  }
}
