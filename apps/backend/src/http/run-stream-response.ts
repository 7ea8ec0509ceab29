import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { RunEventReader } from '../agent/runs/run-channel';
import { sseFrames } from './sse-frames';
import { STREAM_HEADERS } from './stream-headers';

const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

/**
 * A run's events as the AI SDK's UI message stream over SSE, each event with its sequence
 * number as the SSE `id`, so a client that lost the connection can resume after it
 * (`Last-Event-ID`). Used for the request that started the run and for every resume. Each
 * batch of events (whatever arrived since the last write) is one write; when the socket
 * is backed up, the events wait in the run's log and leave together once it drains.
 */
export function runStreamResponse(events: RunEventReader): Response {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const batch = await events.next();
        if (cancelled) return;
        if (!batch) {
          controller.enqueue(DONE);
          return controller.close();
        }
        controller.enqueue(encoder.encode(sseFrames(batch)));
      },
      cancel: () => {
        cancelled = true;
        events.cancel();
      },
    },
    // Read from the run's log only when the socket wants more.
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { ...UI_MESSAGE_STREAM_HEADERS, ...STREAM_HEADERS } });
}
