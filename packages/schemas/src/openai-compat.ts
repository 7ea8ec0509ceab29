import { z } from 'zod';
import { MAX_MESSAGE_TEXT_CHARS } from './chat-stream';
import { storableString } from './common';
import { tokenUsageSchema } from './delegation';
import { checkToolNames, refuseUnlistedParams, sharedRequestFields } from './openai-request';
import { MAX_CLIENT_TOOLS, openAiToolCallDeltaSchema, openAiToolCallSchema, openAiToolChoiceSchema, openAiToolSchema } from './openai-compat-tools';

/**
 * The OpenAI-compatible API (`/v1`): Baton's agents as "models" for any OpenAI client.
 * Every Chat Completions parameter is either passed on to the agent's model, refused with a
 * 400 naming it, or — only where ignoring it changes nothing the caller gets back — listed as
 * ignored (`IGNORED_CHAT_COMPLETION_PARAMS`). Anything else is refused: a parameter dropped
 * without a word makes answers wrong in ways nobody sees (docs/api.md, "/v1").
 */

/** Every `/v1` response carries the chat it ran in; sending it back continues that chat. */
export const BATON_CHAT_ID_HEADER = 'X-Baton-Chat-Id';

const text = storableString.max(MAX_MESSAGE_TEXT_CHARS, `must be at most ${MAX_MESSAGE_TEXT_CHARS.toLocaleString('en-US')} characters`);

export const openAiTextPartSchema = z.looseObject({ type: z.literal('text'), text });

/** An image: a base64 `data:` URL or an `https:` URL (fetched by Baton through its guarded outbound fetch); stored as a file of the chat. */
export const openAiImagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({
    url: z.string().refine((url) => /^https:\/\//i.test(url) || /^data:[^,]*;base64,/i.test(url), { message: 'must be an https: URL or a base64 data: URL' }),
    detail: z.string().optional(),
  }),
});

/** A file sent inline (`file_data`: a base64 `data:` URL, or bare base64); stored as a file of the chat. Uploaded OpenAI file ids mean nothing to Baton. */
export const openAiFilePartSchema = z.looseObject({
  type: z.literal('file'),
  file: z.looseObject({
    file_data: z.string({ error: 'file_data is required (a base64 data: URL); file_id is not supported' }).min(1),
    filename: z.string().max(1000).optional(),
  }),
});

const openAiContentPartSchema = z.discriminatedUnion('type', [openAiTextPartSchema, openAiImagePartSchema, openAiFilePartSchema], {
  error: 'only text, image_url and file parts are supported (audio is not)',
});
export type OpenAiContentPart = z.infer<typeof openAiContentPartSchema>;

/** A message's content: a string, or an array of parts (text joined with a line break; images and files stored as files of the chat). */
export const openAiContentSchema = z.union([text, z.array(openAiContentPartSchema)]);

export const openAiMessageSchema = z
  .looseObject({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool'], {
      error: 'must be "system", "developer", "user", "assistant" or "tool"',
    }),
    content: openAiContentSchema.nullable().optional(),
    /** An assistant message's calls of the caller's tools (client tools), each answered by a `tool` message after it. */
    tool_calls: z
      .array(openAiToolCallSchema)
      .max(MAX_CLIENT_TOOLS * 4)
      .nullable()
      .optional(),
    /** A `tool` message: the call it answers. */
    tool_call_id: z.string().min(1).max(200).optional(),
  })
  .superRefine((m, ctx) => {
    if (m.role !== 'assistant' && (m.content === undefined || m.content === null)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: `a ${m.role} message needs content` });
    }
    if (m.role === 'tool' && !m.tool_call_id) ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'a tool message names the call it answers' });
    if (m.role !== 'assistant' && m.tool_calls?.length)
      ctx.addIssue({ code: 'custom', path: ['tool_calls'], message: 'only an assistant message has tool calls' });
  });
export type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

const maxTokens = z.number().int().min(1).nullable().optional();
const penalty = z.number().min(-2).max(2).nullable().optional();

/** OpenAI's three response formats; the one sent is passed on to the model as it is. */
export const openAiResponseFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      json_schema: z.looseObject(
        {
          name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, underscores or dashes'),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullable().optional(),
        },
        { error: 'is required: { name, schema, strict? }' },
      ),
    }),
  ],
  { error: 'must be { type: "text" }, { type: "json_object" } or { type: "json_schema", json_schema: { name, schema } }' },
);

/**
 * Accepted and ignored: they change nothing an answer holds. `store` and `metadata` ask
 * OpenAI to keep the completion (Baton always keeps the chat), `service_tier` and the prompt
 * cache settings are about OpenAI's billing and caching.
 */
export const IGNORED_CHAT_COMPLETION_PARAMS = [
  'store',
  'metadata',
  'service_tier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
] as const;

/** Refused whenever they are sent (not null): what Baton cannot honour, and why. */
const REFUSED_CHAT_COMPLETION_PARAMS: Record<string, string> = {
  functions: 'the legacy function calling is not supported: send tools',
  function_call: 'the legacy function calling is not supported: send tool_choice',
  top_logprobs: 'log probabilities are not returned',
  audio: 'audio output is not supported',
  prediction: 'predicted outputs are not supported',
  web_search_options: 'web search is not offered (give the agent a search tool instead)',
  moderation: 'moderation is not supported',
};

const chatCompletionFields = {
  ...sharedRequestFields,
  messages: z.array(openAiMessageSchema).min(1, 'must hold at least one message'),
  stream_options: z.looseObject({ include_usage: z.boolean().nullable().optional() }).nullable().optional(),
  // Passed on to each of the turn's own model calls (its sub-agents keep their settings):
  /** Caps each model call of the agent's answer (the sub-agents it delegates to keep their own settings). */
  max_tokens: maxTokens,
  /** OpenAI's newer name for `max_tokens`; the smaller wins when both are sent. */
  max_completion_tokens: maxTokens,
  frequency_penalty: penalty,
  presence_penalty: penalty,
  seed: z.number().int().nullable().optional(),
  stop: z
    .union([z.string().min(1), z.array(z.string().min(1)).max(4)], { error: 'must be a string or an array of at most 4 strings' })
    .nullable()
    .optional(),
  response_format: openAiResponseFormatSchema.nullable().optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(),
  verbosity: z.enum(['low', 'medium', 'high']).nullable().optional(),
  logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullable().optional(),
  /** Applies to the agent's own tools and the caller's (`tools`); a named function must be one of the caller's. */
  tool_choice: openAiToolChoiceSchema.nullable().optional(),
  /** Client tools: offered to the model next to the agent's own; a call of one ends the answer with `finish_reason: "tool_calls"`. */
  tools: z.array(openAiToolSchema).max(MAX_CLIENT_TOOLS, `at most ${MAX_CLIENT_TOOLS} tools per call`).nullable().optional(),
  // Refused unless they ask for what Baton does anyway:
  n: z.literal(1, { error: 'only one choice per request is supported' }).nullable().optional(),
  logprobs: z.literal(false, { error: 'log probabilities are not returned' }).nullable().optional(),
  modalities: z
    .array(z.literal('text', { error: 'only text output is supported' }))
    .nullable()
    .optional(),
};

export const chatCompletionRequestSchema = z.looseObject(chatCompletionFields).superRefine((req, ctx) => {
  refuseUnlistedParams(req, ctx, {
    fields: chatCompletionFields,
    ignored: IGNORED_CHAT_COMPLETION_PARAMS,
    refused: REFUSED_CHAT_COMPLETION_PARAMS,
    api: 'Chat Completions',
  });
  const choice = typeof req.tool_choice === 'object' && req.tool_choice ? req.tool_choice.function.name : undefined;
  checkToolNames(
    (req.tools ?? []).map((t) => t.function.name),
    choice,
    ctx,
    (i) => ['tools', i, 'function', 'name'],
  );
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const openAiModelSchema = z.object({
  /** The agent's id. */
  id: z.string(),
  object: z.literal('model'),
  /** When the agent was created (Unix seconds). */
  created: z.number().int(),
  /** The agent's name (OpenAI's field for who owns a model; clients show it next to the id). */
  owned_by: z.string(),
  /** Baton extensions: the agent's name and description. */
  name: z.string(),
  description: z.string(),
});
export type OpenAiModel = z.infer<typeof openAiModelSchema>;

export const openAiModelListSchema = z.object({ object: z.literal('list'), data: z.array(openAiModelSchema) });
export type OpenAiModelList = z.infer<typeof openAiModelListSchema>;

export const openAiFinishReasonSchema = z.enum(['stop', 'length', 'content_filter', 'tool_calls']);
export type OpenAiFinishReason = z.infer<typeof openAiFinishReasonSchema>;

export const openAiUsageSchema = z.object({
  /** Input tokens of the whole answer: the agent's own model calls and every delegated one. */
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  /** Baton extension: the same tokens split into the agent's own and its sub-agents'. */
  baton: z.object({ own: tokenUsageSchema, delegated: tokenUsageSchema }),
});
export type OpenAiUsage = z.infer<typeof openAiUsageSchema>;

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      /** `content` is null when the answer is only client tool calls. */
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(openAiToolCallSchema).optional(),
      }),
      finish_reason: openAiFinishReasonSchema,
      logprobs: z.null(),
    }),
  ),
  usage: openAiUsageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({
        role: z.literal('assistant').optional(),
        content: z.string().optional(),
        tool_calls: z.array(openAiToolCallDeltaSchema).optional(),
      }),
      finish_reason: openAiFinishReasonSchema.nullable(),
      logprobs: z.null(),
    }),
  ),
  /** With `stream_options.include_usage`: null on every chunk but the last, which has no choices. */
  usage: openAiUsageSchema.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

export const openAiErrorTypes = ['invalid_request_error', 'authentication_error', 'permission_error', 'rate_limit_error', 'server_error'] as const;

export const openAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.enum(openAiErrorTypes),
    /** `invalid_api_key`, `model_not_found`, `chat_not_found`, `chat_busy`, `invalid_json`, `invalid_request`, … */
    code: z.string().nullable(),
    /** The request field at fault, when there is one (`messages[0].content`). */
    param: z.string().nullable(),
  }),
});
export type OpenAiError = z.infer<typeof openAiErrorSchema>;
