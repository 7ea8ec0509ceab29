/**
 * Where a model's context window comes from: the provider's setting, a well-known model's
 * window, or the default (`contextWindowFor` in @baton/schemas, which the provider form
 * shows too); the default model's from the environment.
 */
export { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from '@baton/schemas';

/** The demo model has no limit of its own; it gets the window of the default OpenAI model, so it behaves like a first real setup. */
export const DEMO_CONTEXT_WINDOW = 128_000;

/** `BATON_DEFAULT_CONTEXT_WINDOW`: the default model's window, when the operator knows better than the table. */
export function contextWindowFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.BATON_DEFAULT_CONTEXT_WINDOW?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 256) throw new Error(`BATON_DEFAULT_CONTEXT_WINDOW must be a whole number of tokens (at least 256), got "${raw}"`);
  return n;
}
