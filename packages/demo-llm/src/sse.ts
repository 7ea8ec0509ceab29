// Streaming encoding: a Completion becomes `chat.completion.chunk` payloads,
// and the payloads become an SSE body that is produced lazily, one event per
// read, with a pause between events, so a client sees words arrive one by one.
import type { Completion } from './wire';

/** Words with their trailing whitespace, so the chunks concatenate back to the exact text. */
export function splitWords(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** At least two pieces, so clients have to assemble tool-call arguments as they would with a real model. */
export function splitArguments(args: string): string[] {
  const size = Math.max(1, Math.min(24, Math.ceil(args.length / 2)));
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += size) pieces.push(args.slice(i, i + size));
  return pieces;
}

type Delta = Record<string, unknown>;

function chunk(c: Completion, delta: Delta | null, finishReason: string | null, includeUsage: boolean): string {
  return JSON.stringify({
    id: c.id,
    object: 'chat.completion.chunk',
    created: c.created,
    model: c.model,
    // The final usage chunk has no choices, as with OpenAI's `stream_options.include_usage`.
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: delta === null ? c.usage : null } : {}),
  });
}

/** The opening chunks: the role, then the text word by word. */
export function* textPayloads(c: Completion, includeUsage: boolean): Generator<string> {
  yield chunk(c, { role: 'assistant', content: '', refusal: null }, null, includeUsage);
  for (const word of splitWords(c.text)) yield chunk(c, { content: word }, null, includeUsage);
}

/** Every chunk of a complete response, in OpenAI's order: text, tool calls, finish reason, usage. */
export function* completionPayloads(c: Completion, includeUsage: boolean): Generator<string> {
  yield* textPayloads(c, includeUsage);
  for (const [index, call] of c.toolCalls.entries()) {
    const header = { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } };
    yield chunk(c, { tool_calls: [header] }, null, includeUsage);
    for (const piece of splitArguments(call.function.arguments))
      yield chunk(c, { tool_calls: [{ index, function: { arguments: piece } }] }, null, includeUsage);
  }
  yield chunk(c, {}, c.finishReason, includeUsage);
  if (includeUsage) yield chunk(c, null, null, includeUsage);
}

export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface PacedStreamOptions {
  delayMs: number;
  signal?: AbortSignal;
  /**
   * `done` ends with `data: [DONE]`; `drop` errors the stream instead, like a connection
   * that breaks off; `hang` sends nothing more until the client goes away (a stalled provider).
   */
  end: 'done' | 'drop' | 'hang';
}

export const DROP_MESSAGE = 'demo-llm: connection dropped on purpose ([demo:drop])';

export function pacedSseStream(payloads: Iterable<string>, { delayMs, signal, end }: PacedStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const events = payloads[Symbol.iterator]();
  let started = false;
  let stopped = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (started) await pause(delayMs, signal);
        started = true;
        if (stopped) return;
        if (signal?.aborted) {
          // The client went away: stop producing, and tell any remaining reader why.
          stopped = true;
          controller.error(signal.reason);
          return;
        }
        const next = events.next();
        if (!next.done) {
          controller.enqueue(encoder.encode(`data: ${next.value}\n\n`));
          return;
        }
        if (end === 'hang') {
          await new Promise<void>((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve(), { once: true })));
          stopped = true;
          controller.error(signal?.reason ?? new Error('aborted'));
          return;
        }
        stopped = true;
        if (end === 'drop') {
          controller.error(new Error(DROP_MESSAGE));
          return;
        }
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      },
      cancel() {
        stopped = true;
        events.return?.(undefined);
      },
    },
    // Nothing is produced ahead of a read: pacing and abort then follow the reader exactly.
    { highWaterMark: 0 },
  );
}

/** A body that sends part of the text and then breaks, for `[demo:drop]` without streaming. */
export function brokenBody(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text.slice(0, Math.floor(text.length / 2)));
  let sent = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        // Erroring discards queued chunks, so the partial bytes go out on one read and the error on the next.
        if (sent) return controller.error(new Error(DROP_MESSAGE));
        sent = true;
        controller.enqueue(bytes);
      },
    },
    { highWaterMark: 0 },
  );
}
