import { aiTelemetry } from '../ops/tracing';
import {
  addUsage,
  conversationFiles,
  NO_USAGE,
  nextStepInput,
  PARTIAL_RESULT_REQUEST,
  partialResultReserve,
  newTaskCalls,
  usageSplit,
  type NextStep,
} from '@baton/delegation';
import {
  NEW_TASK_TOOL,
  NOTE_TOOL,
  readMessageMetadata,
  TASK_RESULT_TOOL,
  type BatonUIMessage,
  type BatonUIMessageChunk,
  type RunRetryData,
  type TokenUsage,
} from '@baton/schemas';
import {
  convertToModelMessages,
  experimental_streamTextLowMemory as streamText,
  toUIMessageStream,
  wrapLanguageModel,
  type ModelMessage,
  type StepResult,
  type ToolSet,
} from 'ai';
import { log } from '../ops/logger';
import { appendNote } from '../services/sub-chat-state';
import { storeChatFile } from '../services/files';
import { convertFileContentPart, type ModelInputMessage, withFileContents } from './file-contents';
import { pdfRefusedWarning, pdfTextFallback } from './pdf-fallback';
import { contextFitter, estimateToolTokens, lastTokensOf } from './context-fit';
import { contextPreamble } from './delegate-context';
import { needsApprovalHere } from './approvals';
import { clientNewTaskTool, noteTool, stopConditions, taskResultTool } from './delegation';
import { offeredSubAgents, sumUsage, treeOf } from './delegation-tree';
import { isToolsRefused, toolsRefusedMessage } from './model-errors';
import { MODEL_MAX_RETRIES, withRetryBudget } from './model-retries';
import { modelForChat, resolveModel } from './models';
import type { RuntimeDeps, StartRun, TurnInput, TurnObserver } from './runtime-types';
import { DEFAULT_PROVIDER_LIMITS } from './provider-limits';
import { partStagesMiddleware } from './part-stages';
import { timeSliceStage } from './time-slices';
import { toolCallLimit } from './tool-call-limit';
import { createServerNewTaskTool } from './server-delegation';
import { steeringForRun } from './steering';
import { callSettingsOf, providerFieldsMiddleware } from './call-settings';
import { buildSystemPrompt, callerInstructions, withoutSystemMessages } from './system-prompt';
import { openMcpTools } from './tools/mcp-tools';
import { clientTools } from './tools/client-tools';
import { toolsFor } from './tools/registry';
import { tokenUsage } from './usage-estimate';
import { overBudget, record, rootMeter, type UsageMeter } from './usage-meter';

/** Usage of the final `newTask` outputs of a message: what it delegated. */
export function callOutputsUsage(message: BatonUIMessage | undefined): TokenUsage {
  if (!message) return NO_USAGE;
  return sumUsage(newTaskCalls(message).flatMap((c) => (c.output ? [c.output.usage] : [])));
}

/** The next step's cost at most, from the last step (none before the first: a sub-agent is never refused its first step). */
function nextStepAfter(last: StepResult<ToolSet> | undefined, meter: UsageMeter): NextStep | undefined {
  if (!last || meter.stepCap === null) return undefined;
  const toolResultChars = last.toolResults.reduce((n, r) => n + (JSON.stringify(r.output ?? null)?.length ?? 0), 0);
  const inputTokens = nextStepInput({ inputTokens: last.usage.inputTokens ?? 0, outputTokens: last.usage.outputTokens ?? 0, toolResultChars });
  return { inputTokens, outputCap: meter.stepCap };
}

/**
 * One model turn for this chat: its model, tools and prompt, as a UI message chunk
 * stream. Storing, relaying and ending the run is the run loop's job (runs/execute-run.ts),
 * which passes itself in as `startRun`: server-side delegation starts each sub-agent's run with it.
 */
export async function streamTurn(
  deps: RuntimeDeps,
  input: TurnInput,
  abortSignal: AbortSignal,
  observer: TurnObserver,
  startRun: StartRun,
): Promise<ReadableStream<BatonUIMessageChunk>> {
  const { db } = deps;
  const { chat, agent, workspaceId } = input;
  const isSubChat = chat.parentChatId !== null;
  const tree = await treeOf(db, chat, agent);
  const subAgents = await offeredSubAgents(db, workspaceId, agent, tree);
  const meter = input.meter ?? rootMeter();
  if (isSubChat) observer.meter = meter;
  const { model, modelId, describeError, backoffKey, contextWindow, takesPdfFiles, host } = await resolveModel(deps, workspaceId, modelForChat(chat, agent));
  observer.model = { provider: host, model: modelId };
  // A model that cannot take tools gets a message that says which agent and model, and what to do.
  observer.describeError = (err) => (isToolsRefused(err) ? toolsRefusedMessage({ modelId, agentName: agent.name, isSubAgent: isSubChat }) : describeError(err));
  const tools: ToolSet = { ...toolsFor(tree.toolIds) };
  let delegated: TokenUsage = NO_USAGE;
  if (subAgents.length > 0) {
    // The root's rule: each call waits for a person (AI SDK tool approval) before anything is spent.
    const needsApproval = needsApprovalHere(tree);
    // Only the top-level chat's delegation is the browser's; deeper levels always run here.
    tools[NEW_TASK_TOOL] =
      input.mode === 'client' && !isSubChat
        ? clientNewTaskTool(subAgents, { needsApproval, files: conversationFiles(input.history, workspaceId) })
        : createServerNewTaskTool(deps, {
            needsApproval,
            workspaceId,
            parentChat: chat,
            parentAgent: agent,
            parentHistory: input.history,
            tree,
            subAgents,
            meter,
            abortSignal,
            subRuns: observer.subRuns,
            startRun,
            pause: () => deps.runs.abort(input.run.id, { kind: 'pause' }),
            onOutput: (output) => {
              delegated = addUsage(delegated, output.usage);
            },
          });
  }
  if (isSubChat) {
    tools[TASK_RESULT_TOOL] = taskResultTool;
    tools[NOTE_TOOL] = noteTool((text) => appendNote(db, chat.id, text));
  }
  // The API caller's tools (`/v1`'s `tools`), before MCP's, which then take names left free.
  Object.assign(tools, clientTools(input.overrides?.clientTools, new Set(Object.keys(tools))));
  // Last, so MCP tools take names the others left free; closed by the run loop (runs/execute-run.ts).
  // Images and binary resources of MCP results become files of this chat, owned like the chat (a chat of no one's keeps none).
  const owner = chat.userId;
  const saveToolFile = owner
    ? (upload: { name: string; bytes: Uint8Array }) => storeChatFile(db, deps.files, { workspaceId, userId: owner }, chat.id, upload)
    : undefined;
  const mcp = await openMcpTools({ ...deps, mcpFetch: deps.outbound.providerFetch, saveToolFile }, workspaceId, tree.toolIds, Object.keys(tools), abortSignal);
  observer.closeTools = mcp.close;
  Object.assign(tools, mcp.tools);

  const last = input.history.at(-1);
  const continued = last?.role === 'assistant' ? last : undefined;
  const system = buildSystemPrompt({ agentPrompt: agent.systemPrompt, subAgents, isSubChat, instructions: callerInstructions(input.history) });
  // The context a sub-agent was given comes before its task, as the conversation's first user text; it is not a stored message.
  // At most a quarter of the window: the task and the sub-agent's own steps need the rest.
  const preamble: ModelMessage[] = chat.delegateContext
    ? [{ role: 'user', content: contextPreamble(lastTokensOf(chat.delegateContext, Math.floor(contextWindow / 4))) }]
    : [];
  const modelMessages = async (history: BatonUIMessage[]) => [
    ...preamble,
    // File parts keep references; their bytes are read from the store for each turn (file-contents.ts).
    ...(await convertToModelMessages<ModelInputMessage>(
      await withFileContents(db, deps.files.store, chat, withoutSystemMessages(history), { pdfAsFile: takesPdfFiles }),
      {
        tools,
        ignoreIncompleteToolCalls: true,
        convertDataPart: convertFileContentPart,
      },
    )),
  ];
  const maxOutputTokens = input.overrides?.maxOutputTokens ?? meter.stepCap ?? undefined;
  // Before every model call, the oldest messages that would not fit the window are left out (context-fit.ts).
  const context = contextFitter({
    contextWindow,
    maxOutputTokens,
    system,
    toolTokens: await estimateToolTokens(tools),
    keepFirstUsers: isSubChat ? preamble.length + 1 : 0,
  });
  if (isSubChat) {
    observer.askForPartialResult = async (message, signal) => {
      const history = input.history.at(-1)?.id === message.id ? [...input.history.slice(0, -1), message] : [...input.history, message];
      const fitted = context.fitOnce([...(await modelMessages(history)), { role: 'user', content: PARTIAL_RESULT_REQUEST }]);
      const result = streamText({
        model,
        system: fitted.system,
        messages: fitted.messages,
        // Within a budget the final call gets the reserve the checks before each step kept for it.
        maxOutputTokens: meter.limit === null ? undefined : partialResultReserve(meter.limit),
        abortSignal: signal,
        telemetry: aiTelemetry('baton.partial_result'),
        onError: () => {},
      });
      return { textStream: result.textStream, usage: result.usage.then(tokenUsage) };
    };
  }
  // A person may send a running sub-agent messages; they reach it when a step ends (agent/steering.ts).
  const steer = isSubChat
    ? steeringForRun(db, deps.files.store, chat, input.run.id, (write) => observer.subRuns.push(write), { pdfAsFile: takesPdfFiles })
    : undefined;
  const startedAt = Date.now();
  let firstTokenAt: number | undefined;
  let ownSoFar: TokenUsage = NO_USAGE;
  let reasoningTokens = 0;

  // A provider's failure is worth an operator's line (its reason as the person sees it, without the key).
  const reportRetry = (runId: string, provider: string, data: RunRetryData) => {
    if (!data.recovered)
      log.warn(
        {
          runId,
          provider,
          attempt: data.attempt,
          maxAttempts: data.maxAttempts,
          rateLimited: data.rateLimited ?? false,
          retryInMs: data.retryInMs,
          reason: data.message,
        },
        'model call failed, retrying',
      );
    observer.onRetry?.(data);
  };
  // At most so many tool calls of a response run; the others get an error result (tool-call-limit.ts).
  const callLimit = toolCallLimit((deps.providerLimits ?? DEFAULT_PROVIDER_LIMITS).maxToolCallsPerStep);

  // The AI SDK's single-consumer streamText: the same engine without the tee and the replay
  // buffer that serve a second reader of `result` (the run loop is the only one).
  const result = streamText({
    model: wrapLanguageModel({
      model: withRetryBudget(model, { describe: describeError, onRetry: (data) => reportRetry(input.run.id, backoffKey, data), backoffKey }) as Parameters<
        typeof wrapLanguageModel
      >[0]['model'],
      middleware: [
        // The cap, then the time slices, in one stream stage (part-stages.ts).
        partStagesMiddleware([callLimit.stage, timeSliceStage]),
        // A provider said to take PDFs that refuses one gets their text instead (pdf-fallback.ts).
        ...(takesPdfFiles
          ? [pdfTextFallback((err) => log.warn({ runId: input.run.id, modelId, status: err.statusCode }, pdfRefusedWarning(modelId, err)))]
          : []),
        ...(input.overrides?.providerFields ? [providerFieldsMiddleware(input.overrides.providerFields)] : []),
      ],
    }),
    maxRetries: MODEL_MAX_RETRIES,
    system,
    messages: await modelMessages(input.history),
    tools: callLimit.wrapTools(tools),
    prepareStep: (step) => context.prepareStep(step),
    stopWhen: stopConditions({ isSubChat, maxSteps: agent.maxSteps, overBudget: (steps) => overBudget(meter, nextStepAfter(steps.at(-1), meter)) }),
    // The tree's counters move as steps end, so a budget stops the sub-agent that reaches it.
    onStepFinish: async ({ usage }) => {
      record(meter, tokenUsage(usage));
      await steer?.pickUp();
    },
    experimental_steering: steer?.steering,
    temperature: input.overrides?.temperature ?? agent.temperature ?? undefined,
    ...callSettingsOf(input.overrides),
    // A budgeted sub-agent's steps are capped, so the check before each can count its worst case.
    maxOutputTokens,
    abortSignal,
    onChunk: ({ chunk }) => {
      if (firstTokenAt === undefined && (chunk.type === 'text-delta' || chunk.type === 'tool-input-start')) firstTokenAt = Date.now();
    },
    // Spans of the AI SDK (the model calls, the tools it executes) when tracing is on; no content unless asked for.
    telemetry: aiTelemetry('baton.turn'),
    // Reported through the stream; this only keeps the SDK from logging it.
    onError: () => {},
  });

  const chunks = toUIMessageStream({
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
      if (part.type === 'start') return { agentId: agent.id, agentName: agent.name, modelId, startedAt: new Date(startedAt).toISOString() };
      // prepareStep has run by the time its step starts: the chat shows what was left out.
      if (part.type === 'start-step') return context.takeNotice();
      // Called for every part, a streamed word included: only the step and answer ends read the metadata below.
      if (part.type !== 'finish-step' && part.type !== 'finish') return undefined;
      // A continuation adds to what the message's earlier runs used; delegated is what its final newTask outputs report.
      const previousOwn = readMessageMetadata(continued?.metadata).usage?.own ?? NO_USAGE;
      if (part.type === 'finish-step') {
        // Tokens so far, after every step: a live view (a sub-agent's progress) counts them while the answer runs.
        ownSoFar = addUsage(ownSoFar, tokenUsage(part.usage));
        observer.spent = ownSoFar;
        reasoningTokens += part.usage.outputTokenDetails?.reasoningTokens ?? 0;
        return { usage: usageSplit(addUsage(previousOwn, ownSoFar), addUsage(callOutputsUsage(continued), delegated)) };
      }
      // The answer's end. The total drops the per-step marker of an estimate (usage-estimate.ts): the steps' sum keeps it.
      const own = ownSoFar.estimated ? { ...tokenUsage(part.totalUsage), estimated: true } : tokenUsage(part.totalUsage);
      observer.spent = own;
      const previousReasoning = readMessageMetadata(continued?.metadata).reasoningTokens ?? 0;
      return {
        agentId: agent.id,
        agentName: agent.name,
        modelId,
        usage: usageSplit(addUsage(previousOwn, own), addUsage(callOutputsUsage(continued), delegated)),
        ...(reasoningTokens + previousReasoning > 0 ? { reasoningTokens: reasoningTokens + previousReasoning } : {}),
        finishReason: part.finishReason,
        durationMs: Date.now() - startedAt,
        firstTokenMs: firstTokenAt === undefined ? null : firstTokenAt - startedAt,
      };
    },
  });
  // A steering message's files are stored as the references it was sent with (agent/steering.ts).
  return steer ? chunks.pipeThrough(steer.storedParts()) : chunks;
}
