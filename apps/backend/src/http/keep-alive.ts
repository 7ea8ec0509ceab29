/**
 * While a run is silent — a reasoning model thinking before its first visible word, a
 * parent waiting on its sub-agents — a stream would send nothing for minutes, and proxies
 * with idle timeouts (the web app's `/api` proxy, nginx, load balancers) close it. An SSE
 * comment now and then keeps it open: SSE clients skip comment lines (the AI SDK's parser,
 * OpenAI's clients, `EventSource`), so nothing else sees it. `BATON_STREAM_KEEPALIVE_MS`.
 */
export const DEFAULT_STREAM_KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();
/** A fresh buffer each time: a written chunk may be transferred. */
export const keepAliveFrame = () => encoder.encode(': keep-alive\n\n');

/**
 * Keep-alive comments for a pull-based SSE body: once a read has waited `ms` on the
 * body's source, a comment goes out, and again every `ms` while the wait lasts. One timer
 * per stream, re-armed only when it fires, so a read sets and clears no timer: it was a
 * timer, a promise and a race for every streamed word.
 */
export class KeepAlive {
  private waitingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly controller: ReadableStreamDefaultController<Uint8Array>,
    private readonly ms: number,
  ) {}

  /** `next`, with keep-alive comments going out while it is awaited. */
  async wait<T>(next: Promise<T>): Promise<T> {
    this.waitingSince = performance.now();
    if (!this.stopped) this.timer ??= setTimeout(this.check, this.ms);
    try {
      return await next;
    } finally {
      this.waitingSince = undefined;
    }
  }

  /** The body is over (ended, failed or cancelled): nothing more goes out. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly check = () => {
    this.timer = undefined;
    if (this.stopped || this.waitingSince === undefined) return;
    const now = performance.now();
    if (now - this.waitingSince >= this.ms) {
      try {
        this.controller.enqueue(keepAliveFrame());
      } catch {
        return this.stop(); // closed meanwhile
      }
      this.waitingSince = now;
    }
    this.timer = setTimeout(this.check, Math.max(1, this.ms - (now - this.waitingSince)));
  };
}
