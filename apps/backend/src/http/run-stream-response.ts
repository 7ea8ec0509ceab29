import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { RunEvent } from '../agent/runs/run-channel';
import { STREAM_HEADERS } from './stream-headers';

const encoder = new TextEncoder();

/**
 * A run's events as the AI SDK's UI message stream over SSE, each event with its sequence
 * number as the SSE `id`, so a client that lost the connection can resume after it
 * (`Last-Event-ID`). Used for the request that started the run and for every resume.
 */
export function runStreamResponse(events: ReadableStream<RunEvent>): Response {
  const reader = events.getReader();
  let firstTokenSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        return controller.close();
      }
      controller.enqueue(encoder.encode(`id: ${value.seq}\ndata: ${JSON.stringify(value.chunk)}\n\n`));
      if (!firstTokenSent && value.chunk.type === 'text-delta') {
        firstTokenSent = true;
        // Node corks a response's socket until the next tick; when a provider sends a burst,
        // the whole burst is relayed in one run of promise jobs and the first token would
        // leave with the last. One macrotask turn lets it go out now.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { headers: { ...UI_MESSAGE_STREAM_HEADERS, ...STREAM_HEADERS } });
}
