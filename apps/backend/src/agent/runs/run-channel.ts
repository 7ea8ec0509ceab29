import type { BatonUIMessageChunk } from '@baton/schemas';

/** One chunk of a run's UI message stream, numbered from 0 in the order it was produced. */
export interface RunEvent {
  seq: number;
  chunk: BatonUIMessageChunk;
}

/**
 * One reader's position in a run's events. `next()` gives everything produced since the
 * last call (waiting while there is nothing new), `undefined` once the run has ended and
 * all of it was read, or once the reader was cancelled. One caller at a time.
 */
export interface RunEventReader {
  next(): Promise<RunEvent[] | undefined>;
  /** The reader went away: stop waiting. */
  cancel(): void;
}

/**
 * The event log of a run executing in this process. Every reader — the request that
 * started the run, a reloaded page, a second tab — gets the events from the start (or
 * after a sequence number) and then follows them live until the run ends. Writers never
 * wait for readers: a slow or gone reader only holds its own position.
 */
export class RunChannel {
  readonly events: BatonUIMessageChunk[] = [];
  private ended = false;
  private waiters: (() => void)[] = [];

  push(chunk: BatonUIMessageChunk): number {
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
   * The events after `afterSeq` (-1: all), live until the run ends, in batches: a reader
   * that joins late, or falls behind, catches up at once instead of one event per turn of
   * the event loop.
   */
  read(afterSeq = -1): RunEventReader {
    let next = Math.max(0, afterSeq + 1);
    let cancelled = false;
    return {
      next: async () => {
        while (next >= this.events.length && !this.ended && !cancelled) {
          await new Promise<void>((resolve) => this.waiters.push(resolve));
        }
        if (cancelled || next >= this.events.length) return undefined;
        const batch: RunEvent[] = [];
        for (const end = this.events.length; next < end; next++) batch.push({ seq: next, chunk: this.events[next]! });
        return batch;
      },
      cancel: () => {
        cancelled = true;
        this.wake();
      },
    };
  }
}
