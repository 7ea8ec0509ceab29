// HTTP surface of the demo model: the OpenAI routes Baton's AI SDK provider calls.
// Works both behind a socket (server.ts) and in-process through `app.fetch`.
import { Hono } from 'hono';
import { decideTurn } from './script';
import { brokenBody, completionPayloads, pacedSseStream, pause, textPayloads } from './sse';
import { type Completion, DEMO_MODEL_ID, type WireToolCall, completionJson, errorBody, estimateUsage, randomId, validateChatRequest } from './wire';

export interface DemoLlmOptions {
  /** Pause between streamed words in milliseconds; defaults to `DEMO_LLM_DELAY_MS`, else 15. */
  delayMs?: number;
}

export const DEFAULT_DELAY_MS = 15;
/** How many words `[demo:drop]` lets through before the stream breaks off. */
const WORDS_BEFORE_DROP = 5;

export function delayFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.DEMO_LLM_DELAY_MS;
  const parsed = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : DEFAULT_DELAY_MS;
}

const MODEL = { id: DEMO_MODEL_ID, object: 'model', created: 1767225600, owned_by: 'baton' } as const;

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Keeps reverse proxies (nginx) from buffering the word-by-word stream.
  'x-accel-buffering': 'no',
};

export function createDemoLlmApp(options: DemoLlmOptions = {}) {
  const delayMs = options.delayMs ?? delayFromEnv();
  const app = new Hono();

  app.get('/v1/models', (c) => c.json({ object: 'list', data: [MODEL] }));

  app.get('/v1/models/:id', (c) =>
    c.req.param('id') === DEMO_MODEL_ID
      ? c.json(MODEL)
      : c.json(errorBody(`The model '${c.req.param('id')}' does not exist`, 'invalid_request_error', 'model_not_found'), 404),
  );

  app.post('/v1/chat/completions', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody('The request body is not valid JSON.', 'invalid_request_error'), 400);
    }
    const checked = validateChatRequest(body);
    if (!checked.ok) return c.json(errorBody(checked.message, 'invalid_request_error', null, checked.param), 400);
    const request = checked.request;
    if (request.model !== DEMO_MODEL_ID)
      return c.json(
        errorBody(`The model '${request.model}' does not exist; the demo model is '${DEMO_MODEL_ID}'.`, 'invalid_request_error', 'model_not_found', 'model'),
        404,
      );

    const turn = decideTurn(request);
    if (turn.failure === 'error') return c.json(errorBody('The demo model failed on purpose ([demo:error]).', 'server_error', 'demo_error'), 500);
    // A sub-agent waiting for steering takes its time, so a person can type before it gives up.
    if (turn.pauseMs) await pause(turn.pauseMs, c.req.raw.signal);

    const toolCalls: WireToolCall[] = turn.toolCalls.map((call) => ({
      id: randomId('call_'),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    const completion: Completion = {
      id: randomId('chatcmpl-'),
      created: Math.floor(Date.now() / 1000),
      model: DEMO_MODEL_ID,
      text: turn.text,
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      usage: estimateUsage(
        request,
        turn.text,
        toolCalls.map((t) => t.function.arguments),
      ),
    };

    if (!request.stream) {
      const json = JSON.stringify(completionJson(completion));
      if (turn.failure === 'drop') return new Response(brokenBody(json), { headers: { 'content-type': 'application/json' } });
      return new Response(json, { headers: { 'content-type': 'application/json' } });
    }

    const includeUsage = request.stream_options?.include_usage === true;
    const cutShort = turn.failure === 'drop' || turn.failure === 'stall' || turn.failure === 'silent';
    const payloads = cutShort
      ? take(textPayloads(completion, includeUsage), turn.failure === 'silent' ? 0 : 1 + WORDS_BEFORE_DROP)
      : completionPayloads(completion, includeUsage);
    const end = turn.failure === 'drop' ? 'drop' : turn.failure === 'stall' || turn.failure === 'silent' ? 'hang' : 'done';
    const stream = pacedSseStream(payloads, { delayMs, signal: c.req.raw.signal, end });
    return new Response(stream, { headers: SSE_HEADERS });
  });

  app.notFound((c) => c.json(errorBody(`Unknown route: ${c.req.method} ${c.req.path}`, 'invalid_request_error'), 404));
  app.onError((err, c) => c.json(errorBody(`The demo model crashed: ${err.message}`, 'server_error'), 500));

  return app;
}

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  let n = 0;
  for (const item of items) {
    yield item;
    if (++n >= count) return;
  }
}

/** A ready instance configured from the environment. */
export const demoLlmApp = createDemoLlmApp();

/**
 * `fetch` for `createOpenAI({ baseURL: 'http://demo-llm/v1', apiKey: 'demo', fetch: demoLlmFetch })`:
 * reaches `demoLlmApp` in-process. `app.fetch` may return a bare Response, which the
 * provider's `typeof fetch` option does not accept, hence the wrapper.
 *
 * undici's `Request` follows `init.signal` only while the Request object lives
 * (nodejs/undici#3644): the app keeps just `request.signal` while it streams, so after a
 * garbage collection an abort (Stop, a timeout) no longer reached a stalled answer, which
 * then waited forever. The caller's signal holds the Request until it aborts.
 */
export const demoLlmFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  init?.signal?.addEventListener('abort', () => request.signal, { once: true });
  return Promise.resolve(demoLlmApp.fetch(request));
}) as typeof fetch;
