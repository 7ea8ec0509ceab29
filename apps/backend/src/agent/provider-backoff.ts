/**
 * One backoff per provider, shared by every call of this process: when a provider answers
 * 429 (or asks to wait with `Retry-After`), the calls that would start before that time —
 * siblings of a delegation batch, the next steps of other sub-agents — wait for it instead
 * of each hammering the provider and each spending an attempt on a refusal it announced.
 * Per process: replicas do not share it (each learns from its own refusals).
 */
export class ProviderBackoff {
  readonly #until = new Map<string, number>();

  /** The provider asked to be left alone for `ms` from now (a later time wins). */
  block(key: string, ms: number): void {
    const until = Date.now() + ms;
    if (until > (this.#until.get(key) ?? 0)) this.#until.set(key, until);
  }

  /** How long a call to this provider should still wait before it is sent (0: go). */
  remainingMs(key: string): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return left;
    this.#until.delete(key);
    return 0;
  }
}

/** The process's one instance: every turn's model calls consult it. */
export const providerBackoff = new ProviderBackoff();

/** Waits `ms` unless the signal aborts first: then it rejects with an `AbortError`, as the AI SDK's own waits do (never retried). */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const aborted = () => new DOMException('The wait for the provider was aborted', 'AbortError');
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
