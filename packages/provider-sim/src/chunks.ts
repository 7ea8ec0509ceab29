// A simulated answer as the chunks a real provider streams (or the one JSON object it returns):
// reasoning in the provider's own field, tool-call arguments in pieces of any size, parallel
// calls interleaved, usage present or not.
import { type Usage, type WireToolCall, splitWords } from '@baton/demo-llm';
import type { ReasoningField } from './behaviour';

export interface SimAnswer {
  id: string;
  created: number;
  model: string;
  reasoning: { field: ReasoningField; text: string; chunks: number } | null;
  text: string;
  /** When set, the answer's text instead of `text`, made as it is sent (a long answer). */
  textPieces?: () => Iterable<string>;
  toolCalls: WireToolCall[];
  finishReason: 'stop' | 'tool_calls';
  /** null: the provider reports none. */
  usage: (Usage & { completion_tokens_details?: { reasoning_tokens: number } }) | null;
}

export interface EncodeOptions {
  includeUsage: boolean;
  argumentChunkSize?: number;
  interleaveToolCalls?: boolean;
}

type Delta = Record<string, unknown>;

function chunk(a: SimAnswer, delta: Delta | null, finishReason: string | null, includeUsage: boolean): string {
  return JSON.stringify({
    id: a.id,
    object: 'chat.completion.chunk',
    created: a.created,
    model: a.model,
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage && a.usage ? { usage: delta === null ? a.usage : null } : {}),
  });
}

/** `text` in `count` pieces of about equal length (at least one character each). */
export function pieces(text: string, count: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function reasoningDelta(field: ReasoningField, piece: string): Delta {
  // OpenRouter sends the array form next to the plain `reasoning` string.
  if (field === 'reasoning_details') return { reasoning: piece, reasoning_details: [{ type: 'reasoning.text', text: piece, format: 'unknown', index: 0 }] };
  return { [field]: piece };
}

function* toolCallPayloads(a: SimAnswer, o: EncodeOptions): Generator<string> {
  const size = o.argumentChunkSize ?? 24;
  const split = (args: string) => {
    const out: string[] = [];
    for (let i = 0; i < args.length; i += size) out.push(args.slice(i, i + size));
    return out;
  };
  const header = (index: number, call: WireToolCall) => ({ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } });
  const argument = (index: number, piece: string) => chunk(a, { tool_calls: [{ index, function: { arguments: piece } }] }, null, o.includeUsage);
  if (!o.interleaveToolCalls) {
    for (const [index, call] of a.toolCalls.entries()) {
      yield chunk(a, { tool_calls: [header(index, call)] }, null, o.includeUsage);
      for (const piece of split(call.function.arguments)) yield argument(index, piece);
    }
    return;
  }
  for (const [index, call] of a.toolCalls.entries()) yield chunk(a, { tool_calls: [header(index, call)] }, null, o.includeUsage);
  const queues = a.toolCalls.map((call) => split(call.function.arguments));
  for (let round = 0; queues.some((q) => round < q.length); round++) {
    for (const [index, queue] of queues.entries()) if (round < queue.length) yield argument(index, queue[round]!);
  }
}

/** Every chunk of a streamed answer, in OpenAI's order: role, reasoning, text, tool calls, finish, usage. */
export function* answerPayloads(a: SimAnswer, o: EncodeOptions): Generator<string> {
  yield chunk(a, { role: 'assistant', content: '', refusal: null }, null, o.includeUsage);
  if (a.reasoning)
    for (const piece of pieces(a.reasoning.text, a.reasoning.chunks)) yield chunk(a, reasoningDelta(a.reasoning.field, piece), null, o.includeUsage);
  for (const word of a.textPieces ? a.textPieces() : splitWords(a.text)) yield chunk(a, { content: word }, null, o.includeUsage);
  yield* toolCallPayloads(a, o);
  yield chunk(a, {}, a.finishReason, o.includeUsage);
  if (o.includeUsage && a.usage) yield chunk(a, null, null, o.includeUsage);
}

/** The non-streamed `chat.completion` object. */
export function answerJson(a: SimAnswer) {
  const text = a.textPieces ? [...a.textPieces()].join('') : a.text;
  const reasoning = a.reasoning ? reasoningDelta(a.reasoning.field, a.reasoning.text) : {};
  return {
    id: a.id,
    object: 'chat.completion' as const,
    created: a.created,
    model: a.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: text === '' ? null : text,
          refusal: null,
          ...reasoning,
          ...(a.toolCalls.length > 0 ? { tool_calls: a.toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: a.finishReason,
      },
    ],
    usage: a.usage,
  };
}
