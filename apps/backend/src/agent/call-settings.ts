import type { LanguageModelMiddleware } from 'ai';
import type { TurnOverrides } from './runtime-types';

/**
 * The AI SDK's own call settings a caller chose for this turn (`/v1`'s `top_p`, `stop`, …);
 * absent ones are left to the agent and the provider.
 */
export function callSettingsOf(o: TurnOverrides | undefined) {
  return {
    topP: o?.topP,
    frequencyPenalty: o?.frequencyPenalty,
    presencePenalty: o?.presencePenalty,
    seed: o?.seed,
    stopSequences: o?.stopSequences,
    toolChoice: o?.toolChoice,
  };
}

/** Fields that mean something only next to tools: OpenAI refuses `parallel_tool_calls` in a call without any. */
const WITH_TOOLS_ONLY = ['parallel_tool_calls'];

/**
 * Sends request fields to the provider as they are. `@ai-sdk/openai-compatible` copies the
 * provider options it does not know itself into the request body, after its own fields, and
 * reads them under the provider's name — the part of `model.provider` before its first dot.
 */
export function providerFieldsMiddleware(fields: Record<string, unknown>): LanguageModelMiddleware {
  return {
    transformParams: async ({ params, model }) => {
      const name = model.provider.split('.')[0]!.trim();
      const existing = params.providerOptions?.[name] ?? {};
      const sent = params.tools?.length ? fields : Object.fromEntries(Object.entries(fields).filter(([key]) => !WITH_TOOLS_ONLY.includes(key)));
      return { ...params, providerOptions: { ...params.providerOptions, [name]: { ...existing, ...sent } as typeof existing } };
    },
  };
}
