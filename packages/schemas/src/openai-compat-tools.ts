import { z } from 'zod';

/**
 * Client tools on `/v1` Chat Completions: functions the caller offers with `tools`, which
 * join the agent's own tools for that call. The model's calls to them end the answer with
 * `finish_reason: "tool_calls"`; the caller runs them and sends their outputs back as `tool`
 * messages (docs/api.md, "Client tools").
 */

/** At most this many client tools per call (OpenAI's own limit). */
export const MAX_CLIENT_TOOLS = 128;

/** OpenAI's rule for function names, which every provider Baton speaks to follows. */
export const functionNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, underscores or dashes');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A function's arguments as JSON Schema: an object schema (OpenAI's rule), its `properties`
 * each a schema, `required` a list of names. Checked enough that a model provider does not
 * refuse the call later, when the chat already holds the message.
 */
export const functionParametersSchema = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  if (schema.type !== undefined && schema.type !== 'object') {
    ctx.addIssue({ code: 'custom', path: ['type'], message: 'must be "object": a function takes an object of named arguments' });
  }
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) ctx.addIssue({ code: 'custom', path: ['properties'], message: 'must be an object of JSON Schemas' });
    else {
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!isObject(property) && typeof property !== 'boolean') {
          ctx.addIssue({ code: 'custom', path: ['properties', name], message: 'must be a JSON Schema (an object)' });
        }
      }
    }
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))) {
    ctx.addIssue({ code: 'custom', path: ['required'], message: 'must be an array of property names' });
  }
});

export const openAiToolSchema = z.looseObject({
  type: z.literal('function', { error: 'only function tools are supported (type: "function")' }),
  function: z.looseObject(
    {
      name: functionNameSchema,
      description: z.string().max(10_000).nullable().optional(),
      parameters: functionParametersSchema.nullable().optional(),
      strict: z.boolean().nullable().optional(),
    },
    { error: 'is required: { name, description?, parameters? }' },
  ),
});
export type OpenAiTool = z.infer<typeof openAiToolSchema>;

/** `none`, `auto`, `required` (some tool — the agent's or the caller's), or one of the caller's tools by name. */
export const openAiToolChoiceSchema = z.union(
  [z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: functionNameSchema }) })],
  { error: 'must be "none", "auto", "required" or { type: "function", function: { name } }' },
);
export type OpenAiToolChoice = z.infer<typeof openAiToolChoiceSchema>;

/** A call the model made, as an assistant message holds it (requests) or a response returns it. */
export const openAiToolCallSchema = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.literal('function', { error: 'only function tool calls are supported' }),
  function: z.looseObject({ name: functionNameSchema, arguments: z.string().max(1_000_000) }),
});
export type OpenAiToolCall = z.infer<typeof openAiToolCallSchema>;

/** A piece of a call in a streamed answer: the first names it (`id`, `function.name`), the next carries its `arguments`. */
export const openAiToolCallDeltaSchema = z.object({
  index: z.number().int(),
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().optional(), arguments: z.string().optional() }),
});
export type OpenAiToolCallDelta = z.infer<typeof openAiToolCallDeltaSchema>;
