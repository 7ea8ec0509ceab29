import type {
  ChatCompletionRequest,
  OpenAiContentPart,
  OpenAiMessage,
  ResponseContentPart,
  ResponseCreateRequest,
  ResponseInputItem,
  ResponseTextFormat,
} from '@baton/schemas';
import { invalidBody, OpenAiHttpError } from './errors';

/** Chat Completions messages made from a Responses request, each with the request field it came from (for errors). */
export interface InputMessages {
  messages: OpenAiMessage[];
  params: string[];
}

function contentPart(p: ResponseContentPart): OpenAiContentPart {
  if (p.type === 'input_image') return { type: 'image_url', image_url: { url: p.image_url, ...(p.detail ? { detail: p.detail } : {}) } };
  if (p.type === 'input_file') return { type: 'file', file: { file_data: p.file_data, ...(p.filename ? { filename: p.filename } : {}) } };
  return { type: 'text', text: p.text };
}

/**
 * The input items as the Chat Completions messages `/v1` already handles: message items as
 * messages (`input_text` → text, `input_image` → `image_url`, `input_file` → `file`), the
 * `function_call` items in a row as one assistant message's `tool_calls` (after the assistant
 * text before them), a `function_call_output` as a `tool` message, an `item_reference` as the
 * assistant text it names (`resolve`, an earlier response's message item).
 */
export async function messagesOfInput(input: ResponseCreateRequest['input'], resolve: (id: string, param: string) => Promise<string>): Promise<InputMessages> {
  if (typeof input === 'string') return { messages: [{ role: 'user', content: input }], params: ['input'] };
  const messages: OpenAiMessage[] = [];
  const params: string[] = [];
  const push = (m: OpenAiMessage, param: string) => {
    messages.push(m);
    params.push(param);
  };
  for (const [i, item] of (input as ResponseInputItem[]).entries()) {
    const param = `input[${i}]`;
    if (item.type === 'function_call') {
      const call = { id: item.call_id, type: 'function' as const, function: { name: item.name, arguments: item.arguments } };
      const last = messages.at(-1);
      // One assistant message holds its text and the calls after it (function_call items in a row).
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else push({ role: 'assistant', content: null, tool_calls: [call] }, param);
    } else if (item.type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : item.output.map((p) => p.text).join('\n');
      push({ role: 'tool', tool_call_id: item.call_id, content: output }, param);
    } else if (item.type === 'item_reference') {
      push({ role: 'assistant', content: await resolve(item.id, `${param}.id`) }, param);
    } else {
      const content = typeof item.content === 'string' ? item.content : item.content.map(contentPart);
      push({ role: item.role, content }, param);
    }
  }
  return { messages, params };
}

/**
 * `instructions` as a system message before the input: stored in the chat like any system
 * message, so later turns keep it. Continuing a chat (`previous_response_id`), instructions
 * the chat already holds are not stored again (clients such as the Agents SDK send the same
 * ones with every call); new ones go with a user message, not with tool outputs.
 */
export function withInstructions(input: InputMessages, instructions: string | null | undefined, stored: ReadonlySet<string>): InputMessages {
  if (!instructions?.trim() || stored.has(instructions)) return input;
  if (input.messages.some((m) => m.role === 'tool')) {
    throw invalidBody('instructions: new instructions cannot go with function_call_output items (send them with the next user message)', 'instructions');
  }
  return { messages: [{ role: 'system', content: instructions }, ...input.messages], params: ['instructions', ...input.params] };
}

/** `text.format` as Chat Completions' `response_format` (a JSON schema's fields nested under `json_schema`). */
function responseFormatOf(format: ResponseTextFormat | null | undefined): ChatCompletionRequest['response_format'] {
  if (format?.type !== 'json_schema') return format;
  const { type, name, description, schema, strict, ...rest } = format;
  return { ...rest, type, json_schema: { name, schema, ...(description ? { description } : {}), ...(strict != null ? { strict } : {}) } };
}

/** A Responses request as the Chat Completions request Baton runs: the same parameters under their Chat Completions names. */
export function completionRequestOf(req: ResponseCreateRequest, messages: OpenAiMessage[]): ChatCompletionRequest {
  const choice = req.tool_choice;
  return {
    model: req.model,
    messages,
    temperature: req.temperature,
    top_p: req.top_p,
    max_completion_tokens: req.max_output_tokens,
    response_format: responseFormatOf(req.text?.format),
    verbosity: req.text?.verbosity,
    reasoning_effort: req.reasoning?.effort,
    user: req.user,
    safety_identifier: req.safety_identifier,
    parallel_tool_calls: req.parallel_tool_calls,
    tool_choice: typeof choice === 'object' && choice ? { type: 'function', function: { name: choice.name } } : choice,
    tools: req.tools?.map(({ name, description, parameters, strict }) => ({ type: 'function' as const, function: { name, description, parameters, strict } })),
  };
}

/**
 * An error the Chat Completions steps raised about `messages[k]`, about the request field it
 * came from instead (`input[i]`, `instructions`).
 */
export function inInputTerms(err: unknown, params: string[]): unknown {
  if (!(err instanceof OpenAiHttpError) || !err.param) return err;
  const m = /^messages\[(\d+)\](\.content)?/.exec(err.param);
  const param = m && params[Number(m[1])];
  if (!param) return err;
  const named = `${param}${m[2] && param !== 'instructions' ? m[2] : ''}`;
  const message = err.message.replace(/messages\[\d+\][\w.[\]]*/g, named);
  return new OpenAiHttpError(err.status, err.type, err.code, message, named, err.noRetry);
}
