import type { ChatCompletionChunk } from '@baton/schemas';
import type { RunEventReader } from '../agent/runs/run-channel';
import type { TurnResult } from '../agent/runtime-types';
import { type AnswerScope, type CompletionIds, completionChunk, finishReasonOf, runFailure, usageOf, WHOLE_ANSWER } from './completion';
import { openAiErrorBody } from './errors';
import { clientCallOf, runSseResponse, TextDeltas } from './run-sse';

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/**
 * A run as OpenAI's `chat.completion.chunk` stream: the role first, then a chunk per text
 * delta; a call of the caller's tools as OpenAI streams one, a chunk naming it (`index`, `id`,
 * `function.name`) and one with its `arguments`; then the finish reason (from the stored
 * answer), the usage chunk when asked for, and `[DONE]`. A failed run ends with an `error`
 * event instead, which OpenAI clients raise as an `APIError` (one cut at the answer cap is not
 * failed here: it ends with `finish_reason: "length"`).
 */
export function completionStreamResponse(
  events: RunEventReader,
  result: Promise<TurnResult>,
  ids: CompletionIds,
  options: { includeUsage: boolean; headers: Record<string, string>; keepAliveMs?: number; scope?: AnswerScope },
): Response {
  const scope = options.scope ?? WHOLE_ANSWER;
  const deltas = new TextDeltas();
  let callIndex = 0;
  const withUsage = (chunk: ChatCompletionChunk): ChatCompletionChunk => (options.includeUsage ? { ...chunk, usage: null } : chunk);
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta']) => data(withUsage(completionChunk(ids, delta)));
  return runSseResponse(
    events,
    result,
    {
      start: () => chunk({ role: 'assistant', content: '' }),
      events(batch) {
        let out = '';
        for (const event of batch) {
          const text = deltas.next(event.chunk);
          if (text !== undefined) out += chunk({ content: text });
          const call = clientCallOf(event.chunk, scope.clientToolNames);
          if (!call) continue;
          const index = callIndex++;
          out += chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
          out += chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] });
        }
        return out;
      },
      end(ended) {
        const failure = runFailure(ended);
        let out: string;
        if (failure) {
          out = data(openAiErrorBody(failure.type, failure.code, failure.message));
        } else {
          out = data(withUsage(completionChunk(ids, {}, finishReasonOf(ended, scope))));
          if (options.includeUsage) {
            out += data({ ...ids, object: 'chat.completion.chunk', choices: [], usage: usageOf(ended.responseMessage, scope.earlierUsage) });
          }
        }
        return `${out}data: [DONE]\n\n`;
      },
    },
    options,
  );
}
