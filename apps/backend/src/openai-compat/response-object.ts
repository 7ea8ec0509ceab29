import type { BatonUIMessage, OpenAiToolCall, ResponseObject, ResponseOutputItem, ResponseUsage } from '@baton/schemas';
import type { TurnResult } from '../agent/runtime-types';
import { type AnswerScope, answerText, finishReasonOf, runFailure, usageOf } from './completion';
import { clientToolCalls } from './client-tools';

/**
 * A Responses response is one run of a chat: `resp_<run id>` (a call that sends client tool
 * outputs continues the same stored message in a run of its own, so it gets an id of its own).
 * Its text is the message item `msg_<run id>`; a call of the caller's tools is `fc_<call id>`.
 */
export const responseIdOf = (runId: string) => `resp_${runId}`;
export const runIdOfResponse = (responseId: string) => (responseId.startsWith('resp_') ? responseId.slice(5) : undefined);
export const messageItemIdOf = (runId: string) => `msg_${runId}`;
export const runIdOfMessageItem = (itemId: string) => (itemId.startsWith('msg_') ? itemId.slice(4) : undefined);
export const functionCallItemIdOf = (callId: string) => `fc_${callId}`;

/** What a response names besides its content. */
export interface ResponseIds {
  runId: string;
  /** Unix seconds. */
  createdAt: number;
  model: string;
  previousResponseId: string | null;
  /** The request's settings, echoed as OpenAI echoes them. */
  echo?: Record<string, unknown>;
}

export function responseUsage(message: BatonUIMessage | undefined, scope: AnswerScope): ResponseUsage {
  const usage = usageOf(message, scope.earlierUsage);
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total_tokens,
    baton: usage.baton,
  };
}

/** The answer's text (its parts joined as Chat Completions joins them) as one message item, then the caller's tool calls it waits for. */
export function responseOutput(
  runId: string,
  message: BatonUIMessage | undefined,
  scope: AnswerScope,
  status: 'completed' | 'incomplete',
  calls: OpenAiToolCall[] = clientToolCalls(message, scope.fromPart),
): ResponseOutputItem[] {
  const text = answerText(message, scope.fromPart);
  const items: ResponseOutputItem[] = [];
  if (text) {
    const content = [{ type: 'output_text' as const, text, annotations: [], logprobs: [] }];
    items.push({ type: 'message', id: messageItemIdOf(runId), role: 'assistant', status, content });
  }
  for (const call of calls) {
    const { name, arguments: args } = call.function;
    items.push({ type: 'function_call', id: functionCallItemIdOf(call.id), call_id: call.id, name, arguments: args, status: 'completed' });
  }
  return items;
}

/** `completed`, or `incomplete` when the answer was cut (at `max_output_tokens` or Baton's answer cap) or filtered. */
function endOf(result: TurnResult, scope: AnswerScope): Pick<ResponseObject, 'status' | 'incomplete_details'> {
  const reason = finishReasonOf(result, scope);
  if (reason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The response object, in `openai`'s `Response` shape: the fields Baton has, the rest at OpenAI's defaults. */
export function responseObject(ids: ResponseIds, result: TurnResult | undefined, scope: AnswerScope, calls?: OpenAiToolCall[]): ResponseObject {
  const base = {
    id: responseIdOf(ids.runId),
    object: 'response' as const,
    created_at: ids.createdAt,
    model: ids.model,
    previous_response_id: ids.previousResponseId,
    instructions: null,
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    temperature: null,
    top_p: null,
    max_output_tokens: null,
    text: { format: { type: 'text' } },
    truncation: 'disabled',
    metadata: {},
    store: true,
    ...ids.echo,
  };
  if (!result) return { ...base, status: 'in_progress', error: null, incomplete_details: null, output: [], output_text: '', usage: null };
  const failure = runFailure(result);
  const usage = responseUsage(result.responseMessage, scope);
  if (failure) {
    const output = responseOutput(ids.runId, result.responseMessage, scope, 'incomplete', calls);
    return {
      ...base,
      status: 'failed',
      error: { code: failure.code ?? 'server_error', message: failure.message },
      incomplete_details: null,
      output,
      output_text: '',
      usage,
    };
  }
  const end = endOf(result, scope);
  const output = responseOutput(ids.runId, result.responseMessage, scope, end.status === 'completed' ? 'completed' : 'incomplete', calls);
  return { ...base, ...end, error: null, output, output_text: answerText(result.responseMessage, scope.fromPart), usage };
}
