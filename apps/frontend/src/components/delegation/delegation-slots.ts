'use client';

import { createLimiter } from '@baton/delegation';

/*
 * The root agent's `maxConcurrent`, in the browser: the sub-chats of one batch (the calls
 * of one step) that this tab starts run at most that many at once; the others wait in
 * call order and show as queued. The server checks the same limit and answers 409 to a
 * start beyond it (see run-delegation.ts: wait and retry).
 */

type Limiter = ReturnType<typeof createLimiter>;

const limiters = new Map<string, Limiter>();
const releases = new Map<string, () => void>();

/**
 * Waits for a slot of the batch. `onQueued` runs (at once) when the delegation has to wait.
 * Resolves when it may start; `releaseSlot` gives the slot back.
 */
export async function acquireSlot(key: string, batchKey: string, limit: number, onQueued: () => void): Promise<void> {
  const limiter = limiters.get(batchKey) ?? createLimiter(limit);
  limiters.set(batchKey, limiter);
  const waitingBefore = limiter.waiting;
  const slot = limiter.acquire();
  // The limiter puts a caller in line synchronously: a longer line means this one waits.
  if (limiter.waiting > waitingBefore) onQueued();
  releases.set(key, await slot);
}

/** Gives the delegation's slot to the next in line (if it holds one; more calls do nothing). */
export function releaseSlot(key: string): void {
  releases.get(key)?.();
  releases.delete(key);
}
