import type { UIMessageChunk } from 'ai';

/** One chunk of a run's UI message stream, numbered from 0 in the order it was produced. */
export interface RunEvent {
  seq: number;
  chunk: UIMessageChunk;
}

/**
 * The event log of a run executing in this process. Every reader — the request that
 * started the run, a reloaded page, a second tab — gets the events from the start (or
 * after a sequence number) and then follows them live until the run ends. Writers never
 * wait for readers: a slow or gone reader only holds its own position.
 */
export class RunChannel {
  readonly events: UIMessageChunk[] = [];
  private ended = false;
  private waiters: (() => void)[] = [];

  push(chunk: UIMessageChunk): number {
    this.events.push(chunk);
    this.wake();
    return this.events.length - 1;
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private wake() {
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * The events after `afterSeq` (-1: all), live until the run ends, in batches: each read
   * gets everything produced since the last one (a reader that joins late, or falls
   * behind, catches up at once instead of one event per turn of the event loop).
   */
  read(afterSeq = -1): ReadableStream<RunEvent[]> {
    let next = Math.max(0, afterSeq + 1);
    let cancelled = false;
    return new ReadableStream<RunEvent[]>(
      {
        pull: async (controller) => {
          while (next >= this.events.length && !this.ended && !cancelled) {
            await new Promise<void>((resolve) => this.waiters.push(resolve));
          }
          if (cancelled) return;
          if (next >= this.events.length) return controller.close();
          const batch: RunEvent[] = [];
          for (const end = this.events.length; next < end; next++) batch.push({ seq: next, chunk: this.events[next]! });
          controller.enqueue(batch);
        },
        cancel: () => {
          cancelled = true;
          this.wake();
        },
      },
      { highWaterMark: 0 },
    );
  }
}
