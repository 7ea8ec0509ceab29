import { z } from 'zod';
import { MAX_MESSAGE_TEXT_CHARS } from './chat-stream';
import { storableString } from './common';
import { IGNORED_CHAT_COMPLETION_PARAMS } from './openai-compat';
import { checkToolNames, refuseUnlistedParams, sharedRequestFields } from './openai-request';
import { functionNameSchema, functionParametersSchema, MAX_CLIENT_TOOLS } from './openai-compat-tools';

/**
 * OpenAI's Responses API on `/v1` (`POST /v1/responses`, `GET /v1/responses/:id`): the same
 * agents, chats and rules as Chat Completions, in the Responses shapes. As there, every
 * parameter is passed on, refused with a 400 naming it, or listed as ignored
 * (`IGNORED_RESPONSE_PARAMS`) — never dropped without a word (docs/api.md, "Responses").
 */

const text = storableString.max(MAX_MESSAGE_TEXT_CHARS, `must be at most ${MAX_MESSAGE_TEXT_CHARS.toLocaleString('en-US')} characters`);

/** Text a message holds: `input_text` (and `output_text` / `text`, which clients resend for assistant messages). */
const textPartSchema = z.looseObject({ type: z.enum(['input_text', 'output_text', 'text']), text });

/** An image as Chat Completions takes it (an `https:` or base64 `data:` URL): the same handling. An OpenAI `file_id` means nothing to Baton. */
const imagePartSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: z
    .string({ error: 'image_url is required (an https: URL or a base64 data: URL); file_id is not supported' })
    .refine((url) => /^https:\/\//i.test(url) || /^data:[^,]*;base64,/i.test(url), { message: 'must be an https: URL or a base64 data: URL' }),
  detail: z.string().nullable().optional(),
});

const filePartSchema = z.looseObject({
  type: z.literal('input_file'),
  file_data: z.string({ error: 'file_data is required (a base64 data: URL); file_id and file_url are not supported' }).min(1),
  filename: z.string().max(1000).nullable().optional(),
});

const contentPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema, filePartSchema], {
  error: 'only input_text, input_image and input_file parts are supported (and output_text in assistant messages)',
});
export type ResponseContentPart = z.infer<typeof contentPartSchema>;

export const responseMessageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'system', 'developer', 'assistant'], { error: 'must be "user", "system", "developer" or "assistant"' }),
  content: z.union([text, z.array(contentPartSchema).min(1, 'must hold at least one part')]),
});

export const responseFunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1).max(200),
  name: functionNameSchema,
  arguments: z.string().max(1_000_000),
});

export const responseFunctionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1).max(200),
  output: z.union([text, z.array(textPartSchema)], { error: 'must be a string (or input_text parts)' }),
});

/** A message item of an earlier response (`msg_…`), as the AI SDK sends the assistant's text back. */
export const responseItemReferenceSchema = z.looseObject({ type: z.literal('item_reference'), id: z.string().min(1).max(200) });

export const responseInputItemSchema = z.union(
  [
    responseMessageItemSchema,
    z.discriminatedUnion('type', [responseFunctionCallItemSchema, responseFunctionCallOutputItemSchema, responseItemReferenceSchema]),
  ],
  { error: 'must be a message ({ role, content }), a function_call, a function_call_output or an item_reference' },
);
export type ResponseInputItem = z.infer<typeof responseInputItemSchema>;

export const responseFunctionToolSchema = z.looseObject({
  type: z.literal('function', { error: 'only function tools are supported (type: "function")' }),
  name: functionNameSchema,
  description: z.string().max(10_000).nullable().optional(),
  parameters: functionParametersSchema.nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

export const responseToolChoiceSchema = z.union(
  [z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.literal('function'), name: functionNameSchema })],
  { error: 'must be "none", "auto", "required" or { type: "function", name }' },
);

/** Accepted and ignored: Chat Completions' list (`store`, `metadata`: Baton keeps every chat anyway; billing and caching), `truncation` (Baton fits the chat to the model itself) and `stream_options` (obfuscation padding). */
export const IGNORED_RESPONSE_PARAMS = [...IGNORED_CHAT_COMPLETION_PARAMS, 'truncation', 'stream_options'] as const;

/** Refused whenever they are sent (not null): what Baton cannot honour, and why. */
const REFUSED_RESPONSE_PARAMS: Record<string, string> = {
  background: 'background responses are not supported: stream instead',
  conversation: 'conversations are not supported: send previous_response_id',
  max_tool_calls: 'max_tool_calls is not supported',
  prompt: 'prompt templates are not supported',
  top_logprobs: 'log probabilities are not returned',
  context_management: 'context management is Baton’s own (the chat is fitted to the model)',
};

/** Responses' `text.format`: Chat Completions' `response_format` with the JSON schema's fields at the top level. */
export const responseTextFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, underscores or dashes'),
      description: z.string().nullable().optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().nullable().optional(),
    }),
  ],
  { error: 'must be { type: "text" }, { type: "json_object" } or { type: "json_schema", name, schema, strict? }' },
);
export type ResponseTextFormat = z.infer<typeof responseTextFormatSchema>;

const responseFields = {
  ...sharedRequestFields,
  input: z.union([text.min(1, 'must not be empty'), z.array(responseInputItemSchema).min(1, 'must hold at least one item')]),
  /** System text for this call, after the agent's own prompt (stored as the chat's system message). */
  instructions: text.nullable().optional(),
  previous_response_id: z.string().min(1).max(200).nullable().optional(),
  max_output_tokens: z.number().int().min(1).nullable().optional(),
  text: z
    .looseObject({ format: responseTextFormatSchema.nullable().optional(), verbosity: z.enum(['low', 'medium', 'high']).nullable().optional() })
    .nullable()
    .optional(),
  reasoning: z
    .looseObject({ effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(), summary: z.null().optional() })
    .nullable()
    .optional(),
  tools: z.array(responseFunctionToolSchema).max(MAX_CLIENT_TOOLS, `at most ${MAX_CLIENT_TOOLS} tools per call`).nullable().optional(),
  tool_choice: responseToolChoiceSchema.nullable().optional(),
  include: z
    .array(z.never({ error: 'nothing can be included (no reasoning, logprobs or tool sources are returned)' }))
    .nullable()
    .optional(),
};

export const responseCreateRequestSchema = z.looseObject(responseFields).superRefine((req, ctx) => {
  refuseUnlistedParams(req, ctx, { fields: responseFields, ignored: IGNORED_RESPONSE_PARAMS, refused: REFUSED_RESPONSE_PARAMS, api: 'Responses' });
  const choice = typeof req.tool_choice === 'object' && req.tool_choice ? req.tool_choice.name : undefined;
  checkToolNames(
    (req.tools ?? []).map((t) => t.name),
    choice,
    ctx,
    (i) => ['tools', i, 'name'],
  );
});
export type ResponseCreateRequest = z.infer<typeof responseCreateRequestSchema>;

export const responseUsageSchema = z.object({
  /** The whole answer's tokens: the agent's own model calls and every delegated one. */
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
  /** Baton extension: the same tokens split into the agent's own and its sub-agents'. */
  baton: z.object({
    own: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
    delegated: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  }),
});
export type ResponseUsage = z.infer<typeof responseUsageSchema>;

export const responseOutputMessageSchema = z.object({
  type: z.literal('message'),
  id: z.string(),
  role: z.literal('assistant'),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  content: z.array(z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.never()), logprobs: z.array(z.never()) })),
});

export const responseFunctionCallSchema = z.object({
  type: z.literal('function_call'),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
});

export const responseOutputItemSchema = z.discriminatedUnion('type', [responseOutputMessageSchema, responseFunctionCallSchema]);
export type ResponseOutputItem = z.infer<typeof responseOutputItemSchema>;

/** A response as `openai`'s `Response` type has it (the fields Baton fills; the others null or their defaults). */
export const responseObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['completed', 'incomplete', 'in_progress', 'failed']),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.enum(['max_output_tokens', 'content_filter']) }).nullable(),
  model: z.string(),
  output: z.array(responseOutputItemSchema),
  output_text: z.string(),
  previous_response_id: z.string().nullable(),
  usage: responseUsageSchema.nullable(),
});
export type ResponseObject = z.infer<typeof responseObjectSchema>;
