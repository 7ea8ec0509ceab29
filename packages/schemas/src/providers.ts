import { z } from 'zod';
import { nameSchema, noNulBytes, pageSchema, storableString, timestampSchema } from './common';

/**
 * How a provider's models are given the PDFs of a conversation: `file` sends the PDF itself
 * (a Chat Completions `file` part, which OpenAI's API reads), `text` the text Baton extracts
 * from it (for servers that refuse or ignore file parts: vLLM, Ollama, LM Studio, DeepSeek,
 * many OpenRouter models), `auto` decides by the base URL: `file` for OpenAI's own API
 * (`api.openai.com`), `text` for every other server.
 */
export const PDF_INPUT_MODES = ['auto', 'file', 'text'] as const;
export const pdfInputSchema = z.enum(PDF_INPUT_MODES).meta({ id: 'PdfInput' });
export type PdfInput = z.infer<typeof pdfInputSchema>;

/** Whether PDFs go to a provider at `baseUrl` as files under `mode` (`auto`: only OpenAI's own API takes them). */
export function takesPdfFiles(mode: PdfInput, baseUrl: string): boolean {
  if (mode !== 'auto') return mode === 'file';
  return URL.canParse(baseUrl) && new URL(baseUrl).hostname === 'api.openai.com';
}

export const providerSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    baseUrl: z.string(),
    /** The key itself is write-only: responses only say whether one is stored. */
    hasApiKey: z.boolean(),
    modelIds: z.array(z.string()),
    /** Context window in tokens per model id; a model not named here gets Baton's default (or a well-known model's window). */
    contextWindows: z.record(z.string(), z.number().int()),
    /** How PDFs in messages reach this provider's models (see `pdfInputSchema`). */
    pdfInput: pdfInputSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Provider' });
export type Provider = z.infer<typeof providerSchema>;

// "user:pass@" in the authority, whatever the URL parser makes of it.
const userInfo = /^[a-z][a-z\d+.-]*:[\\/]*[^\\/?#]*@/i;

/**
 * Where Baton sends a provider's requests (with its key). Credentials belong in the key
 * field, never in the URL (it is shown and echoed back); a query string or a fragment would
 * change where `/chat/completions` ends up (`…/403#/chat/completions` asks for `/403`).
 */
export const providerBaseUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })
  .check(noNulBytes)
  .max(2_000)
  .refine((s) => !userInfo.test(s), 'must not contain a user name or password: put the secret in the API key field')
  .refine((s) => !s.includes('?'), 'must not contain a query string (?…): put the secret in the API key field')
  .refine((s) => !s.includes('#'), 'must not contain a fragment (#…)');

/** Tokens a model can take in: 256 is below any chat model, 10 million above any offered today. */
export const contextWindowSchema = z.int().min(256).max(10_000_000);

/** Context windows by model id (at most one per model a provider can list). */
export const contextWindowsSchema = z
  .record(storableString.trim().min(1).max(200), contextWindowSchema)
  .refine((m) => Object.keys(m).length <= 200, 'must name at most 200 models');

const providerFields = {
  name: nameSchema,
  baseUrl: providerBaseUrlSchema,
  apiKey: storableString.max(1_000).nullable(),
  modelIds: z.array(storableString.trim().min(1).max(200)).max(200),
  contextWindows: contextWindowsSchema,
  pdfInput: pdfInputSchema,
};

export const providerCreateSchema = z
  .strictObject({
    name: providerFields.name,
    baseUrl: providerFields.baseUrl,
    apiKey: providerFields.apiKey.default(null),
    modelIds: providerFields.modelIds.default([]),
    contextWindows: providerFields.contextWindows.default({}),
    pdfInput: providerFields.pdfInput.default('auto'),
  })
  .meta({ id: 'ProviderCreate' });
export type ProviderCreate = z.input<typeof providerCreateSchema>;
export type ProviderCreateParsed = z.output<typeof providerCreateSchema>;

export const providerUpdateSchema = z.strictObject(providerFields).partial().meta({ id: 'ProviderUpdate' });
export type ProviderUpdate = z.infer<typeof providerUpdateSchema>;

export const providerPageSchema = pageSchema(providerSchema).meta({ id: 'ProviderPage' });

/**
 * "Test connection": the base URL and key as typed in the form. `providerId` (editing a
 * provider without re-typing its key) makes the server use the stored key; an `apiKey`
 * given wins over it.
 */
export const providerTestRequestSchema = z
  .strictObject({
    baseUrl: providerBaseUrlSchema,
    apiKey: storableString.max(1_000).nullable().optional(),
    providerId: z.string().min(1).max(200).optional(),
  })
  .meta({ id: 'ProviderTestRequest' });
export type ProviderTestRequest = z.infer<typeof providerTestRequestSchema>;

export const providerTestFailureKinds = ['unreachable', 'unauthorized', 'bad_response', 'refused_address', 'timeout'] as const;
export type ProviderTestFailureKind = (typeof providerTestFailureKinds)[number];

/** The provider's answer to `GET {baseUrl}/models`: its model ids, or why there are none. */
export const providerTestResultSchema = z
  .discriminatedUnion('ok', [
    z.object({
      ok: z.literal(true),
      modelIds: z.array(z.string()),
      /** The context windows the list reported (`context_length` as OpenRouter and LM Studio say it, `max_model_len` as vLLM does). */
      contextWindows: z.record(z.string(), z.number().int()).optional(),
    }),
    z.object({ ok: z.literal(false), error: z.object({ kind: z.enum(providerTestFailureKinds), message: z.string() }) }),
  ])
  .meta({ id: 'ProviderTestResult' });
export type ProviderTestResult = z.infer<typeof providerTestResultSchema>;
