/**
 * better-auth keeps its request state in AsyncLocalStorage instances. Before Node 24, an
 * enabled instance installs promise hooks for the whole process, so every promise any code
 * creates — several per streamed word in the AI SDK's web streams — pays for propagating
 * better-auth's context: 10 % of the backend's CPU in the relay benchmark
 * (docs/benchmarks.md), for instances needed only while better-auth itself runs.
 *
 * So Baton calls better-auth through `inBetterAuth`, and when no call is in flight the
 * instances are disabled, which removes the hooks; better-auth's next `run` enables them
 * again. Its instances live on a process-wide global (`Symbol.for('better-auth:global')`);
 * if a later version keeps them elsewhere, this finds nothing and changes nothing.
 */
const BETTER_AUTH_GLOBAL = Symbol.for('better-auth:global');
const STORAGE_KEYS = ['endpointContextAsyncStorage', 'requestStateAsyncStorage', 'adapterAsyncStorage'] as const;

interface Disableable {
  disable(): void;
}

let inFlight = 0;

export async function inBetterAuth<T>(call: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await call();
  } finally {
    inFlight--;
    if (inFlight === 0) disableBetterAuthStorages();
  }
}

/** better-auth's AsyncLocalStorage instances that exist so far. */
export function betterAuthStorages(): Disableable[] {
  const context = (globalThis as { [BETTER_AUTH_GLOBAL]?: { context?: Record<string, unknown> } })[BETTER_AUTH_GLOBAL]?.context;
  return STORAGE_KEYS.map((key) => context?.[key]).filter((s): s is Disableable => typeof (s as Disableable | undefined)?.disable === 'function');
}

function disableBetterAuthStorages() {
  for (const storage of betterAuthStorages()) storage.disable();
}
