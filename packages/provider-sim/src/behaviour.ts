// What a simulated provider does besides answering: one field per documented way real
// providers differ from the demo model. Fields combine; an empty behaviour is the demo model
// with OpenAI's manners.

export type ReasoningField = 'reasoning_content' | 'reasoning' | 'reasoning_details';

export interface SimBehaviour {
  /** Response headers at once, then not a byte for this long, then the answer (a reasoning model thinking). */
  silenceMs?: number;
  /** Nothing at all, not even headers, for this long, then the answer. */
  silenceBeforeHeadersMs?: number;
  /**
   * Reasoning streamed before the answer in this delta field: `reasoning_content` (DeepSeek,
   * vLLM, Qwen), `reasoning` (OpenRouter, Ollama) or `reasoning_details` (OpenRouter's array form).
   */
  reasoning?: { field: ReasoningField; text?: string; chunks?: number };
  /** `false`: no usage anywhere, as many local servers do. */
  usage?: boolean;
  /** The first `times` requests to this server get HTTP 429 (or `status`), with `Retry-After` when given. */
  rateLimit?: { times: number; retryAfter?: string; retryAfterMs?: number; status?: number; message?: string };
  /** Requests whose estimated prompt tokens exceed this get OpenAI's `context_length_exceeded`. */
  contextWindow?: number;
  /** Where `/v1/models` reports the context window: OpenRouter and LM Studio say `context_length`, vLLM `max_model_len`. */
  modelsListField?: 'context_length' | 'max_model_len';
  /** A request with `tools` gets 400 in that server's words. */
  refuseTools?: 'ollama' | 'vllm' | 'openai';
  /**
   * A request with a `file` content part (a PDF as OpenAI's API takes it) gets 400 in that
   * server's words: vLLM's for a part type it does not know, or OpenAI's for a model without
   * file input.
   */
  refuseFiles?: 'vllm' | 'openai';
  /** Tool-call arguments in pieces of this many characters (1: a chunk per character). */
  toolArgumentChunkSize?: number;
  /** Parallel tool calls streamed interleaved: every call's header first, then their argument pieces in turn. */
  interleaveToolCalls?: boolean;
  /** An HTTP error for the first `times` requests (every request when `times` is absent). */
  failWith?: { status: number; body?: unknown; times?: number };
  /**
   * A flood of tool calls: the answer to a user message is `count` parallel calls of `name`
   * (default: the first tool of the request) with `arguments` (default `{}`), in one response.
   * The answer to the tool results is one short sentence counting them.
   */
  toolCallFlood?: { count: number; name?: string; arguments?: Record<string, unknown> };
  /**
   * A long answer: `chars` characters of text (a repeated sentence) instead of the script's,
   * streamed in deltas of `chunkChars` characters (default: all of it in one delta).
   */
  longAnswer?: { chars: number; chunkChars?: number };
  /** Whatever a broken server answers instead of a completion: this body, status (200) and content type, for every request. */
  rawResponse?: { body: string; status?: number; contentType?: string };
}

export const DEFAULT_REASONING_TEXT =
  'Let me think about this step by step. The request is clear enough; I will check what is asked, weigh the options, and then answer briefly.';

/** The behaviour from `PROVIDER_SIM_BEHAVIOUR` (JSON), for the standalone server. */
export function behaviourFromEnv(raw: string | undefined): SimBehaviour {
  if (raw === undefined || raw.trim() === '') return {};
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('PROVIDER_SIM_BEHAVIOUR must be a JSON object');
  return parsed as SimBehaviour;
}
