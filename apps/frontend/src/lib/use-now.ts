'use client';

import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs` while `active` (an elapsed-time display that ticks). */
export function useNow(active: boolean, intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}

/**
 * "12 s", "2 min 05 s", "1 h 02 min"; with `precise` (a finished duration) short ones keep
 * a decimal ("0.8 s"), which a display that ticks once a second would only make jumpy.
 */
export function formatElapsed(ms: number, { precise = false } = {}): string {
  const safe = Math.max(0, ms);
  if (precise && safe < 10_000) return `${(safe / 1000).toFixed(1)} s`;
  const seconds = Math.floor(safe / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
