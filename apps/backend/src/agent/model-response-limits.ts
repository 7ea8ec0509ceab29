import { SafeMessageError } from '../errors';
import { describeBytes, type ProviderLimits } from './provider-limits';
import { TimeSlices } from './time-slices';

const NOT_A_COMPLETION =
  'is not an OpenAI-compatible Chat Completions answer. Is the base URL the API’s (usually ending in /v1), and does the model id exist there?';

/** A provider response Baton refuses to read further: too large, or not a completion at all. */
export class ProviderResponseError extends SafeMessageError {}

const LF = 0x0a;
const DATA = [0x64, 0x61, 0x74, 0x61, 0x3a]; // "data:"
/** How much of a network read is handed to the SSE parser at once (about 40 events of a typical stream). */
const PIECE_BYTES = 8 * 1024;
/** Enough of a line to tell `data: [DONE]` from an event. */
const KEPT = 12;

/**
 * A provider's fetch whose response bodies are measured as they arrive: more than
 * `maxResponseBytes` in all, or one line of a stream longer than `maxEventBytes`, ends the
 * body with an error before anything holds it whole (the SSE parser buffers a line until
 * its end: a 300 MB chunk was 300 MB in memory, several times over). A 2xx answer to a
 * streamed request that is not a stream (an HTML page, a JSON object), or a stream without
 * a single `data:` event, is an error too: read as a stream, either was an empty answer
 * that "succeeded".
 *
 * The errors arrive as the body's, after the headers: the AI SDK does not try such a call
 * again (asking twice would not change what the server sends).
 */
export function withResponseLimits(baseFetch: typeof fetch, limits: Pick<ProviderLimits, 'maxResponseBytes' | 'maxEventBytes'>): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await baseFetch(input, init);
    if (!response.body || !response.ok) return response;
    const streamed = typeof init?.body === 'string' && init.body.includes('"stream":true');
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (streamed && type !== 'text/event-stream') {
      await response.body.cancel().catch(() => {});
      const what = type === 'text/html' ? 'an HTML page' : type ? `a ${type} body instead of a stream` : 'a body without a content type';
      return failing(response, new ProviderResponseError(`The model provider answered with ${what}, which ${NOT_A_COMPLETION}`));
    }
    const sse = type === 'text/event-stream';
    const reader = response.body.getReader();
    const slices = new TimeSlices();
    let total = 0;
    let lineBytes = 0;
    // Whether the stream had a `data:` event other than `[DONE]`: each line's first bytes are
    // kept to tell, until one is found (after that, a line is only measured).
    let lineStart: number[] = [];
    let hadEvent = false;
    const endLine = () => {
      if (!hadEvent && lineStart.length > DATA.length && DATA.every((b, i) => lineStart[i] === b)) {
        const rest = String.fromCharCode(...lineStart.slice(DATA.length)).trim();
        hadEvent = rest !== '' && rest !== '[DONE]';
      }
      if (lineStart.length > 0) lineStart = [];
      lineBytes = 0;
    };
    const scan = (chunk: Uint8Array) => {
      for (let from = 0; from < chunk.byteLength; ) {
        const lf = chunk.indexOf(LF, from);
        const end = lf === -1 ? chunk.byteLength : lf;
        if (!hadEvent) for (let i = from; i < end && lineStart.length < KEPT; i++) lineStart.push(chunk[i]!);
        lineBytes += end - from;
        if (lineBytes > limits.maxEventBytes) {
          throw new ProviderResponseError(
            `The model provider sent a single chunk of more than ${describeBytes(limits.maxEventBytes)}; Baton stopped reading there (BATON_MODEL_MAX_EVENT_BYTES).`,
          );
        }
        if (lf === -1) return;
        endLine();
        from = lf + 1;
      }
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            if (sse) {
              endLine();
              if (!hadEvent) throw new ProviderResponseError(`The model provider’s stream had no answer in it, which ${NOT_A_COMPLETION}`);
            }
            return controller.close();
          }
          total += value.byteLength;
          if (total > limits.maxResponseBytes) {
            throw new ProviderResponseError(
              `The model provider sent more than ${describeBytes(limits.maxResponseBytes)} in one response; Baton stopped reading there (BATON_MODEL_MAX_RESPONSE_BYTES).`,
            );
          }
          if (sse) scan(value);
          // One read can hold hundreds of events, which the SDK's parser and stages handle in one
          // run of promise jobs: handed on in pieces, with a turn of the event loop once a slice is used up.
          for (let at = 0; at < value.byteLength; at += PIECE_BYTES) {
            if (at > 0) await slices.pause();
            controller.enqueue(value.subarray(at, at + PIECE_BYTES));
          }
        } catch (err) {
          reader.cancel().catch(() => {});
          controller.error(err);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;
}

/** The response's headers with a body that fails at its first read. */
function failing(response: Response, error: Error): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(error);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
