import type { BatonUIMessageChunk } from '@baton/schemas';
import type { RunEvent, RunEventReader } from '../agent/runs/run-channel';
import type { TurnResult } from '../agent/runtime-types';
import { DEFAULT_STREAM_KEEPALIVE_MS, KeepAlive } from '../http/keep-alive';
import { STREAM_HEADERS } from '../http/stream-headers';
import { TEXT_PART_SEPARATOR } from './completion';

const encoder = new TextEncoder();

/**
 * The answer's text as it comes from the run, token by token: a new text part after one
 * with text starts with the same blank line the non-streamed answer has between them.
 * The agent's own tool calls, delegation progress and Baton's data parts are not part of OpenAI's streams.
 */
export class TextDeltas {
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

/** A call of one of the caller's tools, once complete in the run's log (the agent's own calls are not returned). */
export function clientCallOf(chunk: BatonUIMessageChunk, names: ReadonlySet<string>): { id: string; name: string; arguments: string } | undefined {
  if (chunk.type !== 'tool-input-available' || !names.has(chunk.toolName)) return undefined;
  return { id: chunk.toolCallId, name: chunk.toolName, arguments: JSON.stringify(chunk.input ?? {}) };
}

/** What one of OpenAI's stream protocols makes of a run: SSE text at the start, per batch of the run's events, and at its end. */
export interface RunSseWriter {
  start(): string;
  events(batch: RunEvent[]): string;
  end(ended: TurnResult): string;
}

/**
 * A run as an SSE response: the writer's opening at once (the client knows the call was
 * accepted), then what it makes of the run's events as they come, keep-alive comments while
 * none give anything (sub-agents at work, a model thinking: keep-alive.ts), and its ending
 * once the run's end is stored. The caller going away only stops this reader: the run goes
 * on and its answer is stored.
 */
export function runSseResponse(
  events: RunEventReader,
  result: Promise<TurnResult>,
  writer: RunSseWriter,
  options: { headers: Record<string, string>; keepAliveMs?: number },
): Response {
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_STREAM_KEEPALIVE_MS;
  let keepAlive: KeepAlive | undefined;
  let started = false;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        keepAlive = new KeepAlive(controller, keepAliveMs);
      },
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(writer.start()));
          return;
        }
        // A pull must enqueue something (or end): most of a run's events carry no text.
        for (;;) {
          const batch = await keepAlive!.wait(events.next());
          if (cancelled) return;
          if (!batch) break;
          const out = writer.events(batch);
          if (out) return controller.enqueue(encoder.encode(out));
        }
        keepAlive!.stop();
        controller.enqueue(encoder.encode(writer.end(await result)));
        controller.close();
      },
      cancel: () => {
        cancelled = true;
        keepAlive?.stop();
        events.cancel();
      },
    },
    // Read from the run's log only when the socket wants more.
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', ...STREAM_HEADERS, ...options.headers } });
}
