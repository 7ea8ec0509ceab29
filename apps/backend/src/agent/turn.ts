import { NEW_TASK_TOOL, TASK_RESULT_TOOL } from '@baton/schemas';
import {
  convertToModelMessages,
  createIdGenerator,
  experimental_streamTextLowMemory as streamText,
  toUIMessageStream,
  type LanguageModelUsage,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import type { Database } from '../db/client';
import type { AgentRow } from '../services/agents';
import type { ChatRow } from '../services/chats';
import type { RunRow } from '../services/runs';
import { clientNewTaskTool, loadSubAgents, stopConditions, taskResultTool, type DelegationMode } from './delegation';
import type { ModelTimeouts } from './model-timeouts';
import type { Outbound } from '../outbound/guarded-fetch';
import type { Secrets } from '../secrets/secrets';
import { resolveModel, type DefaultModelConfig } from './models';
import type { RunRegistry } from './runs/run-registry';
import type { SnapshotWriter } from './runs/snapshot-writer';
import { createServerNewTaskTool } from './server-delegation';
import { buildSystemPrompt } from './system-prompt';
import { toolsFor } from './tools/registry';

export interface RuntimeDeps {
  db: Database;
  defaultModel: DefaultModelConfig;
  runs: RunRegistry;
  modelTimeouts: ModelTimeouts;
  /** Encrypts and decrypts provider API keys (BATON_SECRET_KEY). */
  secrets: Secrets;
  /** The guarded fetches every model call goes through. */
  outbound: Outbound;
  /** Mid-answer snapshots of this process's runs, written in batches. */
  snapshots: SnapshotWriter;
}

export type { AgentRow, ChatRow };

export interface TurnInput {
  workspaceId: string;
  chat: ChatRow;
  agent: AgentRow;
  /** The whole conversation the model answers, ending with the new user message or the continued assistant message. */
  history: UIMessage[];
  mode: DelegationMode;
  /** The run this turn executes (already stored as `running`). */
  run: RunRow;
}

export const generateMessageId = createIdGenerator({ prefix: 'msg', size: 16 });

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

/** What the run loop learns from the model call besides the chunks themselves. */
export interface TurnObserver {
  /** The provider's error behind an `error` chunk (its text is already readable and without the key). */
  lastError?: unknown;
  usage?: LanguageModelUsage;
  describeError: (err: unknown) => string;
  /** Sub-agent runs started by server-side delegation: the turn ends after they do. */
  subRuns: Promise<unknown>[];
}

/**
 * One model turn for this chat: its model, tools and prompt, as a UI message chunk
 * stream. Storing, relaying and ending the run is the run loop's job (runs/execute-run.ts).
 */
export async function streamTurn(
  deps: RuntimeDeps,
  input: TurnInput,
  abortSignal: AbortSignal,
  observer: TurnObserver,
): Promise<ReadableStream<UIMessageChunk>> {
  const { db } = deps;
  const { chat, agent, workspaceId } = input;
  const isSubChat = chat.parentChatId !== null;
  const subAgents = isSubChat ? [] : await loadSubAgents(db, workspaceId, agent.subAgentIds);
  const { model, modelId, describeError } = await resolveModel(deps, workspaceId, agent);
  observer.describeError = describeError;
  const tools: ToolSet = { ...toolsFor(agent.toolIds) };
  if (subAgents.length > 0) {
    tools[NEW_TASK_TOOL] =
      input.mode === 'client'
        ? clientNewTaskTool(subAgents)
        : createServerNewTaskTool(deps, { workspaceId, parentChat: chat, subAgents, abortSignal, subRuns: observer.subRuns });
  }
  if (isSubChat) tools[TASK_RESULT_TOOL] = taskResultTool;

  const last = input.history.at(-1);
  const continued = last?.role === 'assistant' ? last : undefined;
  const startedAt = Date.now();
  let firstTokenAt: number | undefined;

  // The AI SDK's single-consumer streamText: the same engine without the tee and the replay
  // buffer that serve a second reader of `result` (the run loop is the only one).
  const result = streamText({
    model,
    system: buildSystemPrompt({ agentPrompt: agent.systemPrompt, subAgents, isSubChat }),
    messages: await convertToModelMessages(input.history, { tools, ignoreIncompleteToolCalls: true }),
    tools,
    stopWhen: stopConditions({ isSubChat, maxSteps: agent.maxSteps }),
    temperature: agent.temperature ?? undefined,
    abortSignal,
    onChunk: ({ chunk }) => {
      if (firstTokenAt === undefined && (chunk.type === 'text-delta' || chunk.type === 'tool-input-start')) firstTokenAt = Date.now();
    },
    // Reported through the stream; this only keeps the SDK from logging it.
    onError: () => {},
  });

  return toUIMessageStream({
    stream: result.stream,
    tools,
    originalMessages: input.history,
    // The run row names the message before the model is called, so a reader that joins
    // mid-answer (or recovery after a crash) knows which message is being written.
    generateMessageId: () => input.run.messageId,
    redactToolErrors: false,
    onError: (err) => {
      observer.lastError = err;
      return observer.describeError(err);
    },
    messageMetadata: ({ part }) => {
      if (part.type === 'start') return { agentId: agent.id, modelId, startedAt: new Date(startedAt).toISOString() };
      if (part.type === 'finish') {
        observer.usage = part.totalUsage;
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
  });
}
