import { RUN_ERROR_PART, type RunErrorData } from '@baton/schemas';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { RunEvent, RunEventReader } from '../agent/runs/run-channel';
import { logError } from '../error-text';
import { isSafeMessageError } from '../errors';
import { DEFAULT_STREAM_KEEPALIVE_MS, KeepAlive } from './keep-alive';
import { sseFrames } from './sse-frames';
import { STREAM_HEADERS } from './stream-headers';

const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

/**
 * The events could not be read any further (Redis lost while following a run on another
 * replica): the stream ends with the UI message stream's `error` chunk, without an SSE id
 * (it is no event of the run), then `[DONE]`. The client shows the reason instead of seeing
 * the connection drop, which it would take for a network blip and read again at once.
 */
function errorFrame(err: unknown): Uint8Array {
  const errorText = isSafeMessageError(err) ? err.message : 'The answer could not be read any further. Reload the chat to see it once it is stored.';
  return protocolErrorFrame(errorText);
}

const protocolErrorFrame = (errorText: string) => encoder.encode(`data: ${JSON.stringify({ type: 'error', errorText })}\n\n`);

/**
 * The failure a batch reports (its `data-run-error` part), if any. The stored part is
 * Baton's; the AI SDK's own clients only know the protocol's `error` chunk, and without it a
 * stock `useChat` shows a failed answer as a finished one. An answer cut at the server's
 * limit (`too_long`) is not a failure to them: it is complete up to the cut.
 */
function failureIn(batch: RunEvent[]): RunErrorData | undefined {
  const part = batch.findLast((e) => e.chunk.type === RUN_ERROR_PART)?.chunk as { data?: RunErrorData } | undefined;
  return part?.data && part.data.code !== 'too_long' ? part.data : undefined;
}

/**
 * A run's events as the AI SDK's UI message stream over SSE, each event with its sequence
 * number as the SSE `id`, so a client that lost the connection can resume after it
 * (`Last-Event-ID`). Used for the request that started the run and for every resume. Each
 * batch of events (whatever arrived since the last write) is one write; when the socket
 * is backed up, the events wait in the run's log and leave together once it drains. While
 * the run is silent, a keep-alive comment goes out every `keepAliveMs` (see keep-alive.ts).
 * A failed answer ends with the protocol's `error` chunk (no SSE id: it is no event of the
 * run) after its stored `data-run-error` part and its finish.
 */
export function runStreamResponse(events: RunEventReader, keepAliveMs = DEFAULT_STREAM_KEEPALIVE_MS): Response {
  let cancelled = false;
  let keepAlive: KeepAlive | undefined;
  // Sent as the protocol's `error` chunk once the run's events are over: after its finish, so a stock client keeps the whole message.
  let failure: RunErrorData | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        keepAlive = new KeepAlive(controller, keepAliveMs);
      },
      async pull(controller) {
        let batch: RunEvent[] | undefined;
        try {
          batch = await keepAlive!.wait(events.next());
        } catch (err) {
          if (cancelled) return;
          keepAlive!.stop();
          if (!isSafeMessageError(err)) logError('reading a run stream failed', err);
          controller.enqueue(errorFrame(err));
          controller.enqueue(DONE);
          return controller.close();
        }
        if (cancelled) return;
        if (!batch) {
          keepAlive!.stop();
          if (failure) controller.enqueue(protocolErrorFrame(failure.message));
          controller.enqueue(DONE);
          return controller.close();
        }
        failure = failureIn(batch) ?? failure;
        controller.enqueue(encoder.encode(sseFrames(batch)));
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
  return new Response(body, { headers: { ...UI_MESSAGE_STREAM_HEADERS, ...STREAM_HEADERS } });
}
