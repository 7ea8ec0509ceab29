// The simulated provider's HTTP surface: OpenAI's routes, answers from the demo model's
// script, delivered with the behaviour of the model id asked for.
import { type ChatRequest, decideTurn, errorBody, estimateUsage, pause, randomId, validateChatRequest } from '@baton/demo-llm';
import { Hono } from 'hono';
import { DEFAULT_REASONING_TEXT, type SimBehaviour } from './behaviour';
import { answerJson, answerPayloads, type SimAnswer } from './chunks';
import { type RequestCounters, refusalFor } from './refusals';

export const DEFAULT_SIM_MODEL_ID = 'sim-model';

export interface ProviderSimOptions {
  /** Pause between streamed chunks in ms (default 5). */
  delayMs?: number;
  /** The behaviour of every model id not in `models`. */
  behaviour?: SimBehaviour;
  /** Behaviours per model id; these ids (and `sim-model`) are listed by `/v1/models`. */
  models?: Record<string, SimBehaviour>;
}

/** A running app's state, which tests read and change. */
export interface ProviderSimState {
  /** Every `POST /chat/completions` body that passed validation, in order of arrival. */
  requests: ChatRequest[];
  setBehaviour(behaviour: SimBehaviour): void;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

export function createProviderSimApp(options: ProviderSimOptions = {}): { app: Hono } & ProviderSimState {
  const delayMs = options.delayMs ?? 5;
  let fallback = options.behaviour ?? {};
  const models = options.models ?? {};
  const behaviourOf = (model: string) => models[model] ?? fallback;
  const counters: RequestCounters = { rateLimited: 0, failed: 0 };
  const requests: ChatRequest[] = [];
  const app = new Hono();

  const listing = (id: string) => {
    const b = behaviourOf(id);
    const window = b.contextWindow === undefined ? {} : { [b.modelsListField ?? 'context_length']: b.contextWindow };
    return { id, object: 'model', created: 1767225600, owned_by: 'provider-sim', ...window };
  };
  const listedIds = () => [DEFAULT_SIM_MODEL_ID, ...Object.keys(models).filter((id) => id !== DEFAULT_SIM_MODEL_ID)];

  app.get('/v1/models', (c) => c.json({ object: 'list', data: listedIds().map(listing) }));
  app.get('/v1/models/:id', (c) => c.json(listing(c.req.param('id'))));

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
    requests.push(request);
    const b = behaviourOf(request.model);
    const signal = c.req.raw.signal;

    const refusal = refusalFor(request, b, counters);
    if (refusal) return refusal;
    if (b.rawResponse)
      return new Response(b.rawResponse.body, {
        status: b.rawResponse.status ?? 200,
        headers: { 'content-type': b.rawResponse.contentType ?? 'application/json' },
      });
    if (b.silenceBeforeHeadersMs) await pause(b.silenceBeforeHeadersMs, signal);

    const answer = simulatedAnswer(request, b);
    if (answer === 'error') return c.json(errorBody('The simulated provider failed on purpose ([demo:error]).', 'server_error'), 500);
    if (!request.stream) return c.json(answerJson(answer));

    const payloads = answerPayloads(answer, {
      includeUsage: request.stream_options?.include_usage === true,
      argumentChunkSize: b.toolArgumentChunkSize,
      interleaveToolCalls: b.interleaveToolCalls,
    });
    return new Response(sseStream(payloads, { delayMs, firstDelayMs: b.silenceMs ?? 0, signal }), { headers: SSE_HEADERS });
  });

  app.notFound((c) => c.json(errorBody(`Unknown route: ${c.req.method} ${c.req.path}`, 'invalid_request_error'), 404));

  return {
    app,
    requests,
    setBehaviour: (behaviour) => {
      fallback = behaviour;
    },
  };
}

/** The script's turn, or the flood of tool calls a `toolCallFlood` answers a user message with. */
function scriptedTurn(request: ChatRequest, b: SimBehaviour): ReturnType<typeof decideTurn> {
  const turn = decideTurn(request);
  const flood = b.toolCallFlood;
  if (!flood) return turn;
  if (request.messages.at(-1)?.role === 'tool') {
    // A short answer after the results (the script would quote every one of them).
    let results = 0;
    for (let i = request.messages.length - 1; i >= 0 && request.messages[i]!.role === 'tool'; i--) results++;
    return { ...turn, rule: 'tool-results', text: `Read ${results} tool results.`, toolCalls: [] };
  }
  if (request.messages.at(-1)?.role !== 'user') return turn;
  const name = flood.name ?? request.tools?.[0]?.function.name ?? 'currentTime';
  const call = { name, arguments: flood.arguments ?? {} };
  return { ...turn, rule: 'tool', text: `Calling ${name} ${flood.count} times.`, toolCalls: Array.from({ length: flood.count }, () => call) };
}

const LONG_SENTENCE = 'All work and no play makes a very long answer. ';

/** `chars` characters of a repeated sentence, in pieces of `chunkChars`, made as they are read. */
function* longText(chars: number, chunkChars: number): Generator<string> {
  const unit = LONG_SENTENCE.repeat(Math.ceil(Math.min(chunkChars, chars) / LONG_SENTENCE.length) + 1);
  for (let sent = 0; sent < chars; ) {
    const size = Math.min(chunkChars, chars - sent);
    const offset = sent % LONG_SENTENCE.length;
    yield unit.slice(offset, offset + size);
    sent += size;
  }
}

function simulatedAnswer(request: ChatRequest, b: SimBehaviour): SimAnswer | 'error' {
  const turn = scriptedTurn(request, b);
  if (turn.failure === 'error') return 'error';
  const toolCalls = turn.toolCalls.map((call) => ({
    id: randomId('call_'),
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const reasoning = b.reasoning ? { field: b.reasoning.field, text: b.reasoning.text ?? DEFAULT_REASONING_TEXT, chunks: b.reasoning.chunks ?? 8 } : null;
  const base = estimateUsage(
    request,
    turn.text,
    toolCalls.map((t) => t.function.arguments),
  );
  const reasoningTokens = reasoning ? reasoning.text.split(/\s+/).filter(Boolean).length : 0;
  const usage =
    b.usage === false
      ? null
      : {
          prompt_tokens: base.prompt_tokens,
          completion_tokens: base.completion_tokens + reasoningTokens,
          total_tokens: base.total_tokens + reasoningTokens,
          ...(reasoning ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
        };
  return {
    id: randomId('chatcmpl-'),
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    reasoning,
    text: turn.text,
    textPieces: b.longAnswer ? () => longText(b.longAnswer!.chars, b.longAnswer!.chunkChars ?? b.longAnswer!.chars) : undefined,
    toolCalls,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage,
  };
}

/** SSE produced lazily, one event per read; the first waits `firstDelayMs` (headers are already out). */
function sseStream(payloads: Iterable<string>, o: { delayMs: number; firstDelayMs: number; signal: AbortSignal }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const events = payloads[Symbol.iterator]();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await pause(started ? o.delayMs : o.firstDelayMs, o.signal);
        started = true;
        if (o.signal.aborted) return controller.error(o.signal.reason);
        const next = events.next();
        if (!next.done) return controller.enqueue(encoder.encode(`data: ${next.value}\n\n`));
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      },
      cancel() {
        events.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
