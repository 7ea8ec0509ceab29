// The error responses real providers send, each in that provider's own words and shape.
import { type ChatRequest, errorBody } from '@baton/demo-llm';
import type { SimBehaviour } from './behaviour';

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** Roughly what a tokenizer would count: 4 characters a token over the JSON of the messages and tools. */
export function estimatePromptTokens(request: Pick<ChatRequest, 'messages' | 'tools'>): number {
  const chars = JSON.stringify(request.messages).length + (request.tools ? JSON.stringify(request.tools).length : 0);
  return Math.ceil(chars / 4);
}

/** Per-server counters, so "the first n requests" means the first n this server received. */
export interface RequestCounters {
  rateLimited: number;
  failed: number;
}

/** The refusal this request gets before any answer, or null to answer it. */
export function refusalFor(request: ChatRequest, b: SimBehaviour, counters: RequestCounters): Response | null {
  if (b.failWith && (b.failWith.times === undefined || counters.failed < b.failWith.times)) {
    counters.failed++;
    return json(b.failWith.body ?? errorBody('The simulated provider failed.', 'server_error'), b.failWith.status);
  }
  if (b.rateLimit && counters.rateLimited < b.rateLimit.times) {
    counters.rateLimited++;
    const headers: Record<string, string> = {};
    if (b.rateLimit.retryAfter !== undefined) headers['retry-after'] = b.rateLimit.retryAfter;
    if (b.rateLimit.retryAfterMs !== undefined) headers['retry-after-ms'] = String(b.rateLimit.retryAfterMs);
    const message = b.rateLimit.message ?? `Rate limit reached for ${request.model}. Please try again later.`;
    return json(errorBody(message, 'requests', 'rate_limit_exceeded'), b.rateLimit.status ?? 429, headers);
  }
  if (b.refuseTools && request.tools && request.tools.length > 0) return toolsRefused(request.model, b.refuseTools);
  if (b.refuseFiles && hasFilePart(request)) return filesRefused(b.refuseFiles);
  if (b.contextWindow !== undefined) {
    const tokens = estimatePromptTokens(request);
    if (tokens > b.contextWindow)
      return json(
        errorBody(
          `This model's maximum context length is ${b.contextWindow} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
          'invalid_request_error',
          'context_length_exceeded',
          'messages',
        ),
        400,
      );
  }
  return null;
}

function toolsRefused(model: string, server: NonNullable<SimBehaviour['refuseTools']>): Response {
  switch (server) {
    // Ollama's OpenAI-compatible endpoint: a plain error object with the registry name.
    case 'ollama':
      return json({ error: { message: `registry.ollama.ai/library/${model} does not support tools`, type: 'api_error', param: null, code: null } }, 400);
    // vLLM started without a tool parser.
    case 'vllm':
      return json(
        {
          object: 'error',
          message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
        400,
      );
    case 'openai':
      return json(errorBody('tools is not supported in this model.', 'invalid_request_error', 'unsupported_parameter', 'tools'), 400);
  }
}

const hasFilePart = (request: ChatRequest) =>
  request.messages.some((m) => Array.isArray(m.content) && (m.content as Array<{ type?: unknown }>).some((p) => p.type === 'file'));

function filesRefused(server: NonNullable<SimBehaviour['refuseFiles']>): Response {
  switch (server) {
    // vLLM's OpenAI server validating a content part type it has no parser for.
    case 'vllm':
      return json(
        {
          object: 'error',
          message: "Unknown part type: file. Supported types: 'text', 'image_url', 'input_audio'",
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
        400,
      );
    case 'openai':
      return json(errorBody('Invalid content type. file is not supported with this model.', 'invalid_request_error', 'invalid_value', 'messages'), 400);
  }
}
