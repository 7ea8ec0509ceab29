import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { DEMO_MODEL_ID, demoLlmFetch } from '@baton/demo-llm';
import { providerBaseUrlSchema, takesPdfFiles, type DefaultModel } from '@baton/schemas';
import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from 'ai';
import type { Database } from '../db/client';
import { SafeMessageError } from '../errors';
import type { Outbound } from '../outbound/guarded-fetch';
import type { Secrets } from '../secrets/secrets';
import { findProviderWithKey, readProviderApiKey } from '../services/providers';
import { contextWindowFor, contextWindowFromEnv, DEMO_CONTEXT_WINDOW } from './context-window';
import { cachedModel, secretDigest } from './model-cache';
import { describeModelError, type ModelInContext } from './model-errors';
import { reasoningMiddleware, thinkingTimes, withReasoningDetails } from './model-reasoning';
import { partStagesMiddleware } from './part-stages';
import { withResponseLimits } from './model-response-limits';
import { withModelTimeouts, type ModelTimeouts } from './model-timeouts';
import { DEFAULT_PROVIDER_LIMITS, type ProviderLimits } from './provider-limits';
import { usageEstimate, usageEstimateMiddleware } from './usage-estimate';

/** How agents without a provider of their own reach a model. */
export type DefaultModelConfig = (
  | { kind: 'openai'; apiKey: string; baseURL?: string; modelId: string }
  /** The offline demo model: in-process by default, or any URL serving it (tests, benchmarks). */
  | { kind: 'demo'; baseURL?: string }
) & {
  /** `BATON_DEFAULT_CONTEXT_WINDOW`; else a well-known model's window, or the default (agent/context-window.ts). */
  contextWindow?: number;
};

export const DEMO_SYNTAX = '/delegate <sub-agent name>: <task>';

export function defaultModelFromEnv(env: NodeJS.ProcessEnv): DefaultModelConfig {
  const contextWindow = contextWindowFromEnv(env);
  const windowSetting = contextWindow === undefined ? {} : { contextWindow };
  if (env.OPENAI_API_KEY) {
    return {
      kind: 'openai',
      apiKey: env.OPENAI_API_KEY,
      baseURL: env.OPENAI_BASE_URL || undefined,
      modelId: env.BATON_DEFAULT_MODEL || 'gpt-4o-mini',
      ...windowSetting,
    };
  }
  const demoUrl = env.BATON_DEMO_MODEL_URL?.trim();
  if (demoUrl) {
    if (!URL.canParse(demoUrl) || !/^https?:$/.test(new URL(demoUrl).protocol)) {
      throw new Error(`BATON_DEMO_MODEL_URL must be an http(s) base URL such as http://127.0.0.1:4010/v1, got "${demoUrl}"`);
    }
    return { kind: 'demo', baseURL: demoUrl, ...windowSetting };
  }
  return { kind: 'demo', ...windowSetting };
}

export function describeDefaultModel(config: DefaultModelConfig): DefaultModel {
  return config.kind === 'demo'
    ? { kind: 'demo', modelId: DEMO_MODEL_ID, demoSyntax: DEMO_SYNTAX }
    : { kind: 'openai', modelId: config.modelId, demoSyntax: null };
}

export interface ResolvedModel {
  model: LanguageModel;
  /** For message metadata: which model answered. */
  modelId: string;
  /** A readable failure text that never contains the API key (see describeModelError). */
  describeError: (err: unknown) => string;
  /** The provider this model is reached through: its calls share one rate-limit backoff (provider-backoff.ts). */
  backoffKey: string;
  /** The provider's API host, or `demo` (a metrics label: never a path, a key or a provider's name). */
  host: string;
  /** Tokens the model takes in, prompt and answer together (see context-window.ts). */
  contextWindow: number;
  /** PDFs go to this model as files; otherwise as their extracted text (the provider's `pdfInput`; file-contents.ts). */
  takesPdfFiles: boolean;
}

/** What resolving a model needs from the app's dependencies. */
export interface ModelDeps {
  db: Database;
  defaultModel: DefaultModelConfig;
  modelTimeouts: ModelTimeouts;
  secrets: Secrets;
  outbound: Outbound;
  /** What a provider may send (provider-limits.ts); the defaults when absent. */
  providerLimits?: ProviderLimits;
}

/** The fetch every model call goes through: the outbound guard, then the size limits, then the time limits. */
function modelFetch(base: typeof fetch, deps: Pick<ModelDeps, 'modelTimeouts' | 'providerLimits'>): typeof fetch {
  return withModelTimeouts(withResponseLimits(base, deps.providerLimits ?? DEFAULT_PROVIDER_LIMITS), deps.modelTimeouts);
}

/** What a model's fetch is built from (model-cache.ts): a model is reused only where these are the same objects. */
const modelScope = (deps: ModelDeps, ...more: object[]) => [deps.outbound, deps.modelTimeouts, deps.providerLimits ?? DEFAULT_PROVIDER_LIMITS, ...more];

const describeWith = (apiKey: string | null, model: ModelInContext) => (err: unknown) => describeModelError(err, apiKey, model);

const hostOf = (baseURL: string) => (URL.canParse(baseURL) ? new URL(baseURL).host : 'unknown');

const isOpenAiApi = (baseURL: string) => URL.canParse(baseURL) && new URL(baseURL).hostname === 'api.openai.com';

function renameMaxTokens(body: Record<string, unknown>): Record<string, unknown> {
  if (body.max_tokens === undefined) return body;
  const { max_tokens, ...rest } = body;
  return { ...rest, max_completion_tokens: max_tokens };
}

/**
 * Reasoning kept out of requests and timed; usage estimated where the provider reports none.
 * The two middlewares' per-part work shares one stream stage (part-stages.ts).
 */
const modelCallMiddleware: LanguageModelMiddleware = {
  transformParams: reasoningMiddleware.transformParams,
  wrapGenerate: usageEstimateMiddleware.wrapGenerate,
  ...partStagesMiddleware([usageEstimate, () => thinkingTimes()]),
};

/**
 * A Chat Completions model of an OpenAI-compatible server: every model Baton calls, the demo
 * one included, so the code path a real provider uses is the one the tests exercise.
 * @ai-sdk/openai-compatible rather than @ai-sdk/openai's `.chat()`: the latter reads no
 * reasoning field at all, and holds every chunk back until the first visible word (its
 * check for an early error), so minutes of streamed thinking would arrive at once or not
 * at all. See "Decisions" in docs/architecture.md.
 */
function chatModel(options: { name: string; baseURL: string; apiKey: string | null; fetch: typeof fetch }, modelId: string): LanguageModel {
  const provider = createOpenAICompatible({
    name: options.name,
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? undefined,
    // OpenAI's `stream_options.include_usage`: the usage chunk at the end of a stream.
    includeUsage: true,
    fetch: withReasoningDetails(options.fetch),
    // OpenAI's own API refuses `max_tokens` for its reasoning models; every other server reads it.
    transformRequestBody: isOpenAiApi(options.baseURL) ? renameMaxTokens : undefined,
  });
  return wrapLanguageModel({ model: provider.chatModel(modelId), middleware: modelCallMiddleware });
}

// What the operator configured (the environment's default model) goes through the guarded
// fetch with the operator's trust: private addresses allowed, link-local and metadata still not.
export function defaultModel(deps: ModelDeps): ResolvedModel {
  const { defaultModel: config, outbound } = deps;
  const fetch = () => modelFetch(outbound.operatorFetch, deps);
  if (config.kind === 'openai') {
    const model = cachedModel(modelScope(deps, config), 'default', () =>
      chatModel({ name: 'default', baseURL: config.baseURL ?? 'https://api.openai.com/v1', apiKey: config.apiKey, fetch: fetch() }, config.modelId),
    );
    const window = { modelId: config.modelId, contextWindow: config.contextWindow ?? contextWindowFor(config.modelId), setIn: 'environment' } as const;
    return {
      model,
      modelId: config.modelId,
      describeError: describeWith(config.apiKey, window),
      backoffKey: 'default',
      host: hostOf(config.baseURL ?? 'https://api.openai.com/v1'),
      contextWindow: window.contextWindow,
      // The environment's model has no setting: OpenAI's own API takes PDFs, other servers get their text.
      takesPdfFiles: takesPdfFiles('auto', config.baseURL ?? 'https://api.openai.com/v1'),
    };
  }
  const model = cachedModel(modelScope(deps, config), 'demo', () =>
    config.baseURL
      ? chatModel({ name: 'demo', baseURL: config.baseURL, apiKey: 'demo', fetch: fetch() }, DEMO_MODEL_ID)
      : chatModel({ name: 'demo', baseURL: 'http://demo-llm.internal/v1', apiKey: 'demo', fetch: modelFetch(demoLlmFetch, deps) }, DEMO_MODEL_ID),
  );
  const window = { modelId: DEMO_MODEL_ID, contextWindow: config.contextWindow ?? DEMO_CONTEXT_WINDOW, setIn: 'environment' } as const;
  // The demo model says what it received of a PDF file part (its name, type and size).
  return {
    model,
    modelId: DEMO_MODEL_ID,
    describeError: describeWith(null, window),
    backoffKey: 'demo',
    host: 'demo',
    contextWindow: window.contextWindow,
    takesPdfFiles: true,
  };
}

/**
 * Rows stored before base URLs were checked may hold credentials, a query or a fragment;
 * they are not used until someone edits them.
 */
class StaleBaseUrlError extends SafeMessageError {
  constructor() {
    super(
      'This provider’s base URL is no longer accepted (it contains credentials, a query string or a fragment). Edit the provider and put any secret in the API key field.',
    );
  }
}

/**
 * Which model of which provider a chat's turn calls: the chat's model override (a model of the
 * agent's own provider) where the agent allows one, else the agent's. A sub-chat has none: a
 * sub-agent always answers with its own model.
 */
export function modelForChat(
  chat: { parentChatId: string | null; modelOverride: string | null },
  agent: { providerId: string | null; modelId: string | null; allowModelOverride: boolean },
): { providerId: string | null; modelId: string | null } {
  const override = !chat.parentChatId && agent.allowModelOverride && agent.providerId ? chat.modelOverride : null;
  return { providerId: agent.providerId, modelId: override ?? agent.modelId };
}

export async function resolveModel(deps: ModelDeps, workspaceId: string, agent: { providerId: string | null; modelId: string | null }): Promise<ResolvedModel> {
  if (agent.providerId) {
    const row = await findProviderWithKey(deps.db, workspaceId, agent.providerId);
    if (row) {
      const modelId = agent.modelId ?? row.modelIds[0];
      if (modelId) {
        if (!providerBaseUrlSchema.safeParse(row.baseUrl).success) throw new StaleBaseUrlError();
        const apiKey = readProviderApiKey(deps.secrets, row);
        const window = { modelId, contextWindow: contextWindowFor(modelId, row.contextWindows), setIn: 'provider' } as const;
        // Everything the model is built from: an edited provider (URL, key, name) builds a new one.
        const key = [row.id, row.name, row.baseUrl, secretDigest(apiKey), modelId].join('\0');
        const model = cachedModel(modelScope(deps), key, () =>
          chatModel({ name: row.name, baseURL: row.baseUrl, apiKey, fetch: modelFetch(deps.outbound.providerFetch, deps) }, modelId),
        );
        return {
          model,
          modelId,
          describeError: describeWith(apiKey, window),
          backoffKey: `provider:${row.id}`,
          host: hostOf(row.baseUrl),
          contextWindow: window.contextWindow,
          takesPdfFiles: takesPdfFiles(row.pdfInput, row.baseUrl),
        };
      }
    }
  }
  return defaultModel(deps);
}
