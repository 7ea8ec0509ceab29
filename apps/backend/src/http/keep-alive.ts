/**
 * While a run is silent — a reasoning model thinking before its first visible word, a
 * parent waiting on its sub-agents — a stream would send nothing for minutes, and proxies
 * with idle timeouts (the web app's `/api` proxy, nginx, load balancers) close it. An SSE
 * comment now and then keeps it open: SSE clients skip comment lines (the AI SDK's parser,
 * OpenAI's clients, `EventSource`), so nothing else sees it. `BATON_STREAM_KEEPALIVE_MS`.
 */
export const DEFAULT_STREAM_KEEPALIVE_MS = 15_000;

export const KEEP_ALIVE = Symbol('keep-alive');
const encoder = new TextEncoder();
/** A fresh buffer each time: a written chunk may be transferred. */
export const keepAliveFrame = () => encoder.encode(': keep-alive\n\n');

/**
 * `next`, or KEEP_ALIVE when it has not settled within `ms`. The caller keeps the same
 * `next` for its following call, so no event is lost to a keep-alive.
 */
export async function withKeepAlive<T>(next: Promise<T>, ms: number): Promise<T | typeof KEEP_ALIVE> {
  let timer: NodeJS.Timeout | undefined;
  const tick = new Promise<typeof KEEP_ALIVE>((resolve) => {
    timer = setTimeout(() => resolve(KEEP_ALIVE), ms);
  });
  try {
    return await Promise.race([next, tick]);
  } finally {
    clearTimeout(timer);
  }
}
