/**
 * How many tokens a model can take in (prompt plus answer): its context window. The backend
 * fits conversations into it; the provider form shows what a model gets when none is set.
 *
 * In order: what the provider says for the model (typed in the provider form, or filled from
 * the provider's model list by "Test connection"), the windows of well-known hosted models,
 * else DEFAULT_CONTEXT_WINDOW.
 */

/**
 * For a model nobody told Baton about. 32k is what a typical self-hosted model is served
 * with (Qwen3's and Mistral's native window, vLLM deployments of 7–14B models on one GPU),
 * and below every current hosted model (128k and up): too small a guess only leaves older
 * turns out earlier (the chat says so, and the provider form fixes it), while too large a
 * guess makes the provider refuse the call.
 */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

// OpenAI's published windows, most specific prefix first (their /models lists none).
const KNOWN_WINDOWS: readonly (readonly [prefix: string, tokens: number])[] = [
  ['gpt-4.1', 1_047_576],
  ['gpt-5', 400_000],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
];

/** The published window of a well-known hosted model (an `openai/` prefix, as OpenRouter names them, is ignored). */
export function knownContextWindow(modelId: string): number | undefined {
  const id = modelId.toLowerCase().replace(/^openai\//, '');
  // "gpt-4o-mini" and "gpt-5.1" are of their family; "o1" must not match "o1x".
  return KNOWN_WINDOWS.find(([prefix]) => id === prefix || id.startsWith(`${prefix}-`) || (prefix.startsWith('gpt-') && id.startsWith(`${prefix}.`)))?.[1];
}

/** The window of `modelId`: the provider's setting, else a known model's, else the default. */
export function contextWindowFor(modelId: string, settings?: Readonly<Record<string, number>> | null): number {
  return settings?.[modelId] ?? knownContextWindow(modelId) ?? DEFAULT_CONTEXT_WINDOW;
}
