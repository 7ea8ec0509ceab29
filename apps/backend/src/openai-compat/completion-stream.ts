import type { ChatCompletionChunk, BatonUIMessageChunk, OpenAiToolCallDelta } from '@baton/schemas';
import type { RunEvent, RunEventReader } from '../agent/runs/run-channel';
import type { TurnResult } from '../agent/runtime-types';
import { DEFAULT_STREAM_KEEPALIVE_MS, KEEP_ALIVE, keepAliveFrame, withKeepAlive } from '../http/keep-alive';
import { STREAM_HEADERS } from '../http/stream-headers';
import { type AnswerScope, type CompletionIds, completionChunk, finishReasonOf, runFailure, TEXT_PART_SEPARATOR, usageOf, WHOLE_ANSWER } from './completion';
import { openAiErrorBody } from './errors';

const encoder = new TextEncoder();
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/**
 * The answer's text as it comes from the run, token by token: a new text part after one
 * with text starts with the same blank line the non-streamed answer has between them.
 * The agent's own tool calls, delegation progress and Baton's data parts are not part of OpenAI's stream.
 */
class TextDeltas {
  private wroteText = false;
  private separate = false;

  next(chunk: BatonUIMessageChunk): string | undefined {
    if (chunk.type === 'text-start') {
      this.separate = this.wroteText;
      return undefined;
    }
    if (chunk.type !== 'text-delta' || !chunk.delta) return undefined;
    const text = this.separate ? TEXT_PART_SEPARATOR + chunk.delta : chunk.delta;
    this.separate = false;
    this.wroteText = true;
    return text;
  }
}

/**
 * The caller's tool calls as they come complete from the run: each as OpenAI streams one, a
 * chunk naming it (`index`, `id`, `function.name`) and one with its `arguments`. The agent's
 * own calls (its tools, delegation) are not part of OpenAI's stream.
 */
class ToolCallDeltas {
  private index = 0;

  constructor(private readonly names: ReadonlySet<string>) {}

  next(chunk: BatonUIMessageChunk): OpenAiToolCallDelta[][] {
    if (chunk.type !== 'tool-input-available' || !this.names.has(chunk.toolName)) return [];
    const index = this.index++;
    return [
      [{ index, id: chunk.toolCallId, type: 'function', function: { name: chunk.toolName, arguments: '' } }],
      [{ index, function: { arguments: JSON.stringify(chunk.input ?? {}) } }],
    ];
  }
}

/**
 * A run as OpenAI's `chat.completion.chunk` stream: the role first (at once, so the
 * client knows the call was accepted), then a chunk per text delta, then the finish reason
 * (from the stored answer), the usage chunk when asked for, and `[DONE]`; keep-alive
 * comments while no text comes (sub-agents at work, a model thinking: keep-alive.ts). A failed run
 * ends with an `error` event instead, which OpenAI clients raise as an `APIError` (one cut at
 * the answer cap is not failed here: it ends with `finish_reason: "length"`). The
 * caller going away only stops this reader: the run goes on and its answer is stored.
 */
export function completionStreamResponse(
  events: RunEventReader,
  result: Promise<TurnResult>,
  ids: CompletionIds,
  options: { includeUsage: boolean; headers: Record<string, string>; keepAliveMs?: number; scope?: AnswerScope },
): Response {
  const scope = options.scope ?? WHOLE_ANSWER;
  const toolCalls = new ToolCallDeltas(scope.clientToolNames);
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_STREAM_KEEPALIVE_MS;
  const deltas = new TextDeltas();
  let pending: Promise<RunEvent[] | undefined> | undefined;
  const withUsage = (chunk: ChatCompletionChunk): ChatCompletionChunk => (options.includeUsage ? { ...chunk, usage: null } : chunk);
  let started = false;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(data(withUsage(completionChunk(ids, { role: 'assistant', content: '' })))));
          return;
        }
        // A pull must enqueue something (or end): most of a run's events carry no text.
        for (;;) {
          pending ??= events.next();
          const batch = await withKeepAlive(pending, keepAliveMs);
          if (cancelled) return;
          if (batch === KEEP_ALIVE) return controller.enqueue(keepAliveFrame());
          pending = undefined;
          if (!batch) break;
          let out = '';
          for (const { chunk } of batch) {
            const text = deltas.next(chunk);
            if (text !== undefined) out += data(withUsage(completionChunk(ids, { content: text })));
            for (const calls of toolCalls.next(chunk)) out += data(withUsage(completionChunk(ids, { tool_calls: calls })));
          }
          if (out) return controller.enqueue(encoder.encode(out));
        }
        const ended = await result;
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
        controller.enqueue(encoder.encode(`${out}data: [DONE]\n\n`));
        controller.close();
      },
      cancel: () => {
        cancelled = true;
        events.cancel();
      },
    },
    // Read from the run's log only when the socket wants more.
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', ...STREAM_HEADERS, ...options.headers } });
}
