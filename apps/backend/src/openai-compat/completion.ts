import { NO_USAGE } from '@baton/delegation';
import {
  readMessageMetadata,
  type ChatCompletion,
  type ChatCompletionChunk,
  type OpenAiFinishReason,
  type OpenAiUsage,
  type BatonUIMessage,
} from '@baton/schemas';
import type { TurnResult } from '../agent/runtime-types';
import { OpenAiHttpError } from './errors';

/** What every response of one call names: the answer's message id, when it began, the agent. */
export interface CompletionIds {
  id: string;
  created: number;
  model: string;
}

/** Text parts of an answer are joined by a blank line (a delegating answer writes one before and one after its calls). */
export const TEXT_PART_SEPARATOR = '\n\n';

export function answerText(message: BatonUIMessage | undefined): string {
  const texts = (message?.parts ?? []).flatMap((p) => (p.type === 'text' && p.text ? [p.text] : []));
  return texts.join(TEXT_PART_SEPARATOR);
}

/** The answer's tokens, delegated ones included (the message's `usage.total`). */
export function usageOf(message: BatonUIMessage | undefined): OpenAiUsage {
  const usage = readMessageMetadata(message?.metadata).usage;
  const total = usage?.total ?? NO_USAGE;
  return {
    prompt_tokens: total.inputTokens,
    completion_tokens: total.outputTokens,
    total_tokens: total.inputTokens + total.outputTokens,
    baton: { own: usage?.own ?? NO_USAGE, delegated: usage?.delegated ?? NO_USAGE },
  };
}

/**
 * An answer cut at `BATON_MAX_ANSWER_CHARS` (answer-cap.ts): the run ends `failed` with the
 * note `too_long`, but what came before the cut is the answer, as it is when OpenAI cuts one
 * at `max_tokens` — so /v1 returns it, with `finish_reason: "length"`, not a server error.
 */
const wasCut = (result: TurnResult) => result.status === 'failed' && result.error?.code === 'too_long';

/** The AI SDK's reasons in OpenAI's words; a run that stopped on a tool call (awaiting approval) ended its text: `stop`. */
export function finishReasonOf(result: TurnResult): OpenAiFinishReason {
  if (wasCut(result)) return 'length';
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

export function chatCompletion(ids: CompletionIds, result: TurnResult): ChatCompletion {
  const message = result.responseMessage;
  return {
    ...ids,
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: answerText(message), refusal: null }, finish_reason: finishReasonOf(result), logprobs: null }],
    usage: usageOf(message),
  };
}

export function completionChunk(
  ids: CompletionIds,
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finishReason: OpenAiFinishReason | null = null,
): ChatCompletionChunk {
  return { ...ids, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] };
}
