'use client';

import { useSyncExternalStore } from 'react';

/** One timer for every relative time on the page ("5 minutes ago"), ticking once a minute. */
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 60_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export function useMinute(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}
