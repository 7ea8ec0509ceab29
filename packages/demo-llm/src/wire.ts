// The slice of the OpenAI Chat Completions protocol the demo model speaks:
// request types with a hand-written validator (zod is not a runtime dependency
// of this package), and builders for the response objects.

export const DEMO_MODEL_ID = 'baton-demo';

export interface TextPart {
  type: string;
  text?: string;
}

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | TextPart[] | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  /** Asks for JSON (see json-answer.ts); the other types change nothing. */
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } } | null;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorBody(message: string, type: string, code: string | null = null, param: string | null = null): OpenAIErrorBody {
  return { error: { message, type, param, code } };
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns the request, or a message naming the first problem (field path first, like OpenAI does). */
export function validateChatRequest(body: unknown): { ok: true; request: ChatRequest } | { ok: false; param: string; message: string } {
  const fail = (param: string, message: string) => ({ ok: false as const, param, message: `${param}: ${message}` });
  if (!isObject(body)) return fail('body', 'expected a JSON object');
  if (typeof body.model !== 'string' || body.model === '') return fail('model', 'expected a non-empty string');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return fail('messages', 'expected a non-empty array');
  for (const [i, m] of body.messages.entries()) {
    const at = `messages[${i}]`;
    if (!isObject(m)) return fail(at, 'expected an object');
    if (typeof m.role !== 'string' || !ROLES.has(m.role)) return fail(`${at}.role`, `expected one of ${[...ROLES].join(', ')}`);
    const c = m.content;
    if (c !== undefined && c !== null && typeof c !== 'string' && !(Array.isArray(c) && c.every(isObject)))
      return fail(`${at}.content`, 'expected a string, null or an array of content parts');
    if (m.tool_calls !== undefined && m.tool_calls !== null) {
      if (!Array.isArray(m.tool_calls)) return fail(`${at}.tool_calls`, 'expected an array');
      for (const [j, call] of m.tool_calls.entries()) {
        const fn = isObject(call) ? call.function : undefined;
        if (!isObject(call) || typeof call.id !== 'string' || !isObject(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string')
          return fail(`${at}.tool_calls[${j}]`, 'expected { id, type: "function", function: { name, arguments } }');
      }
    }
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') return fail(`${at}.tool_call_id`, 'required for tool messages');
  }
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) return fail('tools', 'expected an array');
    for (const [i, t] of body.tools.entries()) {
      if (!isObject(t) || !isObject(t.function) || typeof t.function.name !== 'string')
        return fail(`tools[${i}]`, 'expected { type: "function", function: { name, description?, parameters? } }');
    }
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') return fail('stream', 'expected a boolean');
  if (body.stream_options !== undefined && body.stream_options !== null && !isObject(body.stream_options)) return fail('stream_options', 'expected an object');
  return { ok: true, request: body as unknown as ChatRequest };
}

/** Text of a message, whether content is a string or an array of `{ type: 'text', text }` parts. */
export function contentText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

const countWords = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** A rough estimate, one token per word: the demo model has no tokenizer, and callers only need plausible numbers. */
export function estimateUsage(request: ChatRequest, text: string, toolArguments: string[]): Usage {
  let prompt = 0;
  for (const m of request.messages) {
    prompt += countWords(contentText(m));
    for (const call of m.tool_calls ?? []) prompt += countWords(call.function.arguments);
  }
  const completion = countWords(text) + toolArguments.reduce((n, a) => n + countWords(a), 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function randomId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = prefix;
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
}

/** Everything one response carries; encoded either as one JSON object or as a stream of chunks. */
export interface Completion {
  id: string;
  created: number;
  model: string;
  text: string;
  toolCalls: WireToolCall[];
  finishReason: 'stop' | 'tool_calls';
  usage: Usage;
}

export function completionJson(c: Completion) {
  return {
    id: c.id,
    object: 'chat.completion' as const,
    created: c.created,
    model: c.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: c.text === '' ? null : c.text,
          refusal: null,
          ...(c.toolCalls.length > 0 ? { tool_calls: c.toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: c.finishReason,
      },
    ],
    usage: c.usage,
  };
}
