import { createOpenAI } from '@ai-sdk/openai';
import { DEMO_MODEL_ID, demoLlmFetch } from '@baton/demo-llm';
import type { DefaultModel } from '@baton/schemas';
import type { LanguageModel } from 'ai';
import type { Database } from '../db/client';
import { findProviderWithKey } from '../services/providers';
import { DEFAULT_MODEL_TIMEOUTS, withModelTimeouts, type ModelTimeouts } from './model-timeouts';

/** How agents without a provider of their own reach a model. */
export type DefaultModelConfig =
  | { kind: 'openai'; apiKey: string; baseURL?: string; modelId: string }
  /** The offline demo model: in-process by default, or any URL serving it (tests, benchmarks). */
  | { kind: 'demo'; baseURL?: string };

export const DEMO_SYNTAX = '/delegate <sub-agent name>: <task>';

export function defaultModelFromEnv(env: NodeJS.ProcessEnv): DefaultModelConfig {
  if (env.OPENAI_API_KEY) {
    return {
      kind: 'openai',
      apiKey: env.OPENAI_API_KEY,
      baseURL: env.OPENAI_BASE_URL || undefined,
      modelId: env.BATON_DEFAULT_MODEL || 'gpt-4o-mini',
    };
  }
  const demoUrl = env.BATON_DEMO_MODEL_URL?.trim();
  if (demoUrl) {
    if (!URL.canParse(demoUrl) || !/^https?:$/.test(new URL(demoUrl).protocol)) {
      throw new Error(`BATON_DEMO_MODEL_URL must be an http(s) base URL such as http://127.0.0.1:4010/v1, got "${demoUrl}"`);
    }
    return { kind: 'demo', baseURL: demoUrl };
  }
  return { kind: 'demo' };
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
  /** Removes the API key from text (provider error messages sometimes echo it). */
  redact: (text: string) => string;
}

function redactor(apiKey: string | null | undefined): (text: string) => string {
  if (!apiKey || apiKey.length < 6) return (text) => text;
  return (text) => text.split(apiKey).join('[redacted]');
}

// Every model, the demo one included, goes through @ai-sdk/openai's Chat Completions
// client, so the code path a real provider uses is the one the tests exercise.
function defaultModel(config: DefaultModelConfig, timeouts: ModelTimeouts): ResolvedModel {
  if (config.kind === 'openai') {
    const provider = createOpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, name: 'default', fetch: withModelTimeouts(fetch, timeouts) });
    return { model: provider.chat(config.modelId), modelId: config.modelId, redact: redactor(config.apiKey) };
  }
  const provider = config.baseURL
    ? createOpenAI({ apiKey: 'demo', baseURL: config.baseURL, name: 'demo', fetch: withModelTimeouts(fetch, timeouts) })
    : createOpenAI({ apiKey: 'demo', baseURL: 'http://demo-llm.internal/v1', fetch: withModelTimeouts(demoLlmFetch, timeouts), name: 'demo' });
  return { model: provider.chat(DEMO_MODEL_ID), modelId: DEMO_MODEL_ID, redact: redactor(undefined) };
}

export async function resolveModel(
  db: Database,
  workspaceId: string,
  agent: { providerId: string | null; modelId: string | null },
  config: DefaultModelConfig,
  timeouts: ModelTimeouts = DEFAULT_MODEL_TIMEOUTS,
): Promise<ResolvedModel> {
  if (agent.providerId) {
    const row = await findProviderWithKey(db, workspaceId, agent.providerId);
    if (row) {
      const modelId = agent.modelId ?? row.modelIds[0];
      if (modelId) {
        const provider = createOpenAI({ apiKey: row.apiKey ?? '', baseURL: row.baseUrl, name: row.name, fetch: withModelTimeouts(fetch, timeouts) });
        return { model: provider.chat(modelId), modelId, redact: redactor(row.apiKey) };
      }
    }
  }
  return defaultModel(config, timeouts);
}
