import { NO_USAGE } from '@baton/delegation';
import {
  readMessageMetadata,
  type ChatCompletion,
  type ChatCompletionChunk,
  type OpenAiFinishReason,
  type OpenAiUsage,
  type BatonUIMessage,
  type UsageSplit,
  type TokenUsage,
} from '@baton/schemas';
import type { TurnResult } from '../agent/runtime-types';
import { clientToolCalls } from './client-tools';
import { OpenAiHttpError } from './errors';

/** What every response of one call names: the answer's message id, when it began, the agent. */
export interface CompletionIds {
  id: string;
  created: number;
  model: string;
}

/**
 * Which part of the answer's message this call returns: a call that delivered client tool
 * outputs continues the message the earlier call wrote, and gets only what comes after it —
 * its text, its calls, and the tokens it spent.
 */
export interface AnswerScope {
  /** The message's parts before this call (the run's `base_part_count`). */
  fromPart: number;
  /** The message's usage before this call. */
  earlierUsage?: UsageSplit;
  /** The caller's tools: their calls are returned, the agent's own are not. */
  clientToolNames: ReadonlySet<string>;
}

export const WHOLE_ANSWER: AnswerScope = { fromPart: 0, clientToolNames: new Set() };

/** Text parts of an answer are joined by a blank line (a delegating answer writes one before and one after its calls). */
export const TEXT_PART_SEPARATOR = '\n\n';

export function answerText(message: BatonUIMessage | undefined, fromPart = 0): string {
  const texts = (message?.parts ?? []).slice(fromPart).flatMap((p) => (p.type === 'text' && p.text ? [p.text] : []));
  return texts.join(TEXT_PART_SEPARATOR);
}

const minus = (a: TokenUsage, b: TokenUsage | undefined): TokenUsage => ({
  inputTokens: Math.max(0, a.inputTokens - (b?.inputTokens ?? 0)),
  outputTokens: Math.max(0, a.outputTokens - (b?.outputTokens ?? 0)),
});

/** The answer's tokens, delegated ones included (the message's `usage.total`), less what the message held before this call. */
export function usageOf(message: BatonUIMessage | undefined, earlier?: UsageSplit): OpenAiUsage {
  const usage = readMessageMetadata(message?.metadata).usage;
  const total = minus(usage?.total ?? NO_USAGE, earlier?.total);
  return {
    prompt_tokens: total.inputTokens,
    completion_tokens: total.outputTokens,
    total_tokens: total.inputTokens + total.outputTokens,
    baton: { own: minus(usage?.own ?? NO_USAGE, earlier?.own), delegated: minus(usage?.delegated ?? NO_USAGE, earlier?.delegated) },
  };
}

/**
 * An answer cut at `BATON_MAX_ANSWER_CHARS` (answer-cap.ts): the run ends `failed` with the
 * note `too_long`, but what came before the cut is the answer, as it is when OpenAI cuts one
 * at `max_tokens` — so /v1 returns it, with `finish_reason: "length"`, not a server error.
 */
const wasCut = (result: TurnResult) => result.status === 'failed' && result.error?.code === 'too_long';

/**
 * The AI SDK's reasons in OpenAI's words: `tool_calls` when the answer waits for the caller's
 * tools; a run that stopped on one of its own calls (awaiting approval) ended its text: `stop`.
 */
export function finishReasonOf(result: TurnResult, scope: AnswerScope = WHOLE_ANSWER): OpenAiFinishReason {
  if (wasCut(result)) return 'length';
  if (clientToolCalls(result.responseMessage, scope.fromPart).length > 0) return 'tool_calls';
  const reason = readMessageMetadata(result.responseMessage?.metadata).finishReason;
  if (reason === 'length') return 'length';
  if (reason === 'content-filter') return 'content_filter';
  return 'stop';
}

/**
 * A run that failed or was interrupted is an error for the caller, although the chat holds
 * what was written (the `noRetry` header keeps OpenAI clients from sending the call again,
 * which would start another answer). A stopped run (Stop in Baton's UI) returns what it has,
 * and so does a cut one (`finish_reason: "length"`).
 */
export function runFailure(result: TurnResult): OpenAiHttpError | undefined {
  if ((result.status !== 'failed' && result.status !== 'interrupted') || wasCut(result)) return undefined;
  const message = result.error?.message ?? 'the answer failed';
  const status = result.status === 'interrupted' ? 503 : 500;
  return new OpenAiHttpError(status, 'server_error', result.error?.code ?? 'server_error', message, null, true);
}

export function chatCompletion(ids: CompletionIds, result: TurnResult, scope: AnswerScope = WHOLE_ANSWER): ChatCompletion {
  const message = result.responseMessage;
  const text = answerText(message, scope.fromPart);
  const toolCalls = clientToolCalls(message, scope.fromPart);
  const reply = toolCalls.length > 0 ? { content: text || null, tool_calls: toolCalls } : { content: text };
  return {
    ...ids,
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', ...reply, refusal: null }, finish_reason: finishReasonOf(result, scope), logprobs: null }],
    usage: usageOf(message, scope.earlierUsage),
  };
}

export function completionChunk(
  ids: CompletionIds,
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finishReason: OpenAiFinishReason | null = null,
): ChatCompletionChunk {
  return { ...ids, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] };
}
