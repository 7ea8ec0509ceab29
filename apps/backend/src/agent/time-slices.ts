import type { PartStageFactory } from './part-stages';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long work done in promise jobs may run before it lets the event loop turn: promise
 * jobs never yield by themselves, so a long fold or relay in one chain would hold every
 * other request (health checks, other chats) until it ends.
 */
export const TIME_SLICE_MS = 10;

/** Measures work in slices: `pause()` waits for the next turn of the event loop once the slice is used up. */
export class TimeSlices {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = TIME_SLICE_MS) {}

  /** Whether the current slice is used up. */
  get due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Resolves at once within a slice, after one turn of the event loop once it is used up. */
  async pause(): Promise<void> {
    if (!this.due) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}

/**
 * A model's stream parts passed on in time slices. One network read of a fast provider
 * can hold hundreds of events (a response of 1,000 tool calls arrives in a few reads), and
 * each passes through a dozen stream stages in promise jobs: without a pause they would all
 * be relayed in one turn of the event loop. Waits only once a slice is used up.
 */
export const timeSliceStage: PartStageFactory = () => {
  const slices = new TimeSlices();
  return (part) => (slices.due ? slices.pause().then(() => part) : part);
};
