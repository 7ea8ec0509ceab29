import { APICallError, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from 'ai';
import { errorTextForUser } from '../error-text';
import { isSafeMessageError } from '../errors';
import { isModelTimeout } from './model-timeouts';

export const PROVIDER_UNREACHABLE = 'Baton could not reach the provider. Check its base URL and that the provider is running.';
export const PROVIDER_MESSAGE_MAX_CHARS = 300;
/** Keys at least this long are cut out of the provider's text; shorter ones drop the text that contains them. */
export const MIN_REDACTED_KEY_CHARS = 8;
const unreadable = 'The model provider sent an answer Baton could not read. Is the base URL an OpenAI-compatible Chat Completions API?';

/**
 * The provider's own words with its API key removed, or undefined when they cannot be shown.
 * A long key is replaced wherever it occurs. A short one (a 1–7 character key) cannot be
 * cut out without mangling ordinary words ("a", "ok"), so a text that contains it is not
 * shown at all. Redaction comes before truncation, so a cut never leaves half a key.
 */
export function withoutApiKey(text: string, apiKey: string | null | undefined): string | undefined {
  if (!apiKey) return text;
  if (apiKey.length >= MIN_REDACTED_KEY_CHARS) return text.split(apiKey).join('[redacted]');
  return text.includes(apiKey) ? undefined : text;
}

/**
 * A provider's JSON error message (`{ "error": { "message" } }`, or `{ "error": "…" }`),
 * cut to 300 characters. Any other body — an HTML page, plain text — is never shown: the
 * base URL may point at something that is not a model provider at all.
 */
function providerMessage(body: string | undefined, apiKey: string | null | undefined): string | undefined {
  if (!body) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  const message = typeof error === 'string' ? error : (error as { message?: unknown } | null | undefined)?.message;
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  const shown = withoutApiKey(message.trim(), apiKey);
  if (shown === undefined) return undefined;
  return shown.length > PROVIDER_MESSAGE_MAX_CHARS ? `${shown.slice(0, PROVIDER_MESSAGE_MAX_CHARS)}…` : shown;
}

/** The model a call went to, for messages that name it. */
export interface ModelInContext {
  modelId: string;
  /** The window Baton fitted the conversation into. */
  contextWindow: number;
  /** Where a person changes that window: a provider's settings, or the server's environment (the default model). */
  setIn: 'provider' | 'environment';
}

// OpenAI's code, and the wordings of OpenAI, OpenRouter and vLLM ("maximum context length"),
// llama.cpp ("exceeds the available context size", exceed_context_size_error), LM Studio
// ("context length of only"), Anthropic-style gateways ("prompt is too long").
const contextLengthWords =
  /context_length_exceeded|maximum context length|context (?:length|size|window)|exceed_context_size|prompt is too long|too many (?:input |prompt )?tokens/i;
const providerLimit = /(?:maximum context length is|context length of only|context size of|>\s*)\s*([\d,]+)\s*(?:tokens|maximum)?/i;

/** A provider's refusal because the conversation is longer than the model's window, with the limit it names (if it does). */
export function contextLengthError(error: unknown): { limit?: number } | undefined {
  if (!APICallError.isInstance(error) || (error.statusCode !== 400 && error.statusCode !== 413 && error.statusCode !== 422)) return undefined;
  const text = `${error.responseBody ?? ''} ${error.message}`;
  if (!contextLengthWords.test(text)) return undefined;
  const limit = Number(providerLimit.exec(text)?.[1]?.replace(/,/g, ''));
  return Number.isInteger(limit) && limit > 0 ? { limit } : {};
}

const tokens = (n: number) => `${n.toLocaleString('en-US')} tokens`;

function describeContextLengthError(found: { limit?: number }, model: ModelInContext): string {
  // The default model has no provider row: its window is the server's setting.
  const setTo = (n: string) =>
    model.setIn === 'provider' ? `set the model’s context window in Settings → Providers to ${n}` : `set BATON_DEFAULT_CONTEXT_WINDOW on the server to ${n}`;
  const limit = found.limit && found.limit < model.contextWindow ? found.limit : undefined;
  const head = `The conversation is too long for model ${model.modelId}`;
  if (limit) {
    const action = setTo(limit.toLocaleString('en-US'));
    return `${head}: the provider allows ${tokens(limit)}, and Baton assumed ${tokens(model.contextWindow)}. ${action.charAt(0).toUpperCase()}${action.slice(1)}, so Baton leaves older messages out, or start a new chat.`;
  }
  return `${head} (context window ${tokens(model.contextWindow)}). Start a new chat, or ${setTo('what the model really supports')}.`;
}

function findInCauses(error: unknown, test: (e: unknown) => boolean): unknown {
  for (let current = error, depth = 0; current && depth < 10; current = (current as { cause?: unknown }).cause, depth++) {
    if (test(current)) return current;
  }
  return undefined;
}

/**
 * A message a person can act on, for any failure while talking to a model provider: the
 * HTTP status and the provider's own JSON message, or what Baton knows for certain — never
 * a raw response body, and never which address or port refused the connection.
 */
export function describeModelError(error: unknown, apiKey?: string | null, model?: ModelInContext): string {
  if (RetryError.isInstance(error)) return describeModelError(error.lastError, apiKey, model);
  const safe = findInCauses(error, isSafeMessageError);
  if (safe) return (safe as Error).message;
  if (isModelTimeout(error)) return error.message;
  if (APICallError.isInstance(error)) {
    // No status: the request never got an answer (refused, reset, DNS, TLS…).
    if (error.statusCode === undefined) return PROVIDER_UNREACHABLE;
    // "Failed to process successful response": the body broke off after a good start.
    if (error.statusCode < 400) return error.cause ? describeModelError(error.cause, apiKey, model) : unreadable;
    const tooLong = model && contextLengthError(error);
    if (tooLong) return describeContextLengthError(tooLong, model);
    const status = `(HTTP ${error.statusCode})`;
    const head =
      error.statusCode === 401 || error.statusCode === 403
        ? `The model provider rejected the API key ${status}`
        : `The model provider returned an error ${status}`;
    const detail = providerMessage(error.responseBody, apiKey);
    return detail ? `${head}: ${detail}` : `${head}.`;
  }
  if (JSONParseError.isInstance(error) || TypeValidationError.isInstance(error) || InvalidResponseDataError.isInstance(error)) return unreadable;
  const message = error instanceof Error ? error.message : String(error);
  if (/terminated|socket|ECONNRESET|closed|aborted|network|fetch failed/i.test(message)) {
    return 'The connection to the model provider was lost mid-answer. What arrived so far is kept; try again.';
  }
  return `The model call failed: ${errorTextForUser(error)}`;
}

/**
 * How servers say that a model cannot take tools: Ollama ("registry.ollama.ai/library/gemma:2b
 * does not support tools"), vLLM ("\"auto\" tool choice requires --enable-auto-tool-choice
 * and --tool-call-parser to be set"), OpenAI-style ("tools is not supported in this model"),
 * llama.cpp ("tools param requires --jinja flag").
 */
const TOOLS_REFUSED =
  /does not support tools|tool choice requires|tools? (?:is|are) not supported|does not support (?:function|tool)[ -]?call|tools param requires/i;

/** The provider refused the request because the model does not support tools (a 4xx that says so). */
export function isToolsRefused(error: unknown): boolean {
  const err = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(err) || err.statusCode === undefined || err.statusCode < 400 || err.statusCode >= 500) return false;
  return TOOLS_REFUSED.test(`${err.responseBody ?? ''}\n${err.message}`);
}

/**
 * What to do about it, naming the agent and the model. A sub-agent always has tools (it
 * reports with `taskResult`), so its only way out is another model.
 */
export function toolsRefusedMessage(at: { modelId: string; agentName: string; isSubAgent: boolean }): string {
  const head = `The model ${at.modelId} of agent ${at.agentName} does not support tools`;
  return at.isSubAgent
    ? `${head}, which a sub-agent needs to report its result; pick a model that does.`
    : `${head}; pick a model that does, or remove its tools and sub-agents.`;
}
