'use client';

import { Brain, ChevronRight } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Markdown } from '../markdown/markdown';

/** "12 s", "2 min 5 s": how long a model thought. */
export function formatThinkingTime(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
}

/** Seconds since this section first showed a model thinking, ticking while it does. */
function useElapsedSeconds(running: boolean): number {
  const since = useRef(Date.now());
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!running) return;
    const tick = () => setElapsed(Math.floor((Date.now() - since.current) / 1000));
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [running]);
  return elapsed;
}

/**
 * A model's reasoning (the provider's `reasoning_content` / `reasoning` stream, stored with
 * the answer as a reasoning part): collapsed, so the answer stays what one reads; "Thinking…"
 * with the seconds so far while it streams, "Thought for 12 s" once done; opened, the thoughts
 * as markdown, sanitised like every model output.
 */
export function ThinkingSection({ text, streaming, thinkingMs }: { text: string; streaming: boolean; thinkingMs?: number }) {
  const [open, setOpen] = useState(false);
  const elapsed = useElapsedSeconds(streaming);
  const regionId = useId();
  const label = streaming
    ? `Thinking…${elapsed > 0 ? ` ${elapsed} s` : ''}`
    : thinkingMs === undefined
      ? 'Thoughts'
      : `Thought for ${formatThinkingTime(thinkingMs)}`;
  return (
    <section
      className="w-full rounded-lg border border-neutral-200 text-xs text-neutral-600 dark:border-neutral-800 dark:text-neutral-400"
      data-testid="thinking"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? regionId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full cursor-pointer items-center gap-1.5 rounded-lg px-3 py-2 text-left font-medium hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-900"
      >
        <ChevronRight className={`h-3.5 w-3.5 shrink-0 transition-transform ${open ? 'rotate-90' : ''}`} aria-hidden />
        <Brain className={`h-3.5 w-3.5 shrink-0 ${streaming ? 'animate-pulse' : ''}`} aria-hidden />
        <span className="tabular-nums">{label}</span>
      </button>
      {open && (
        <div id={regionId} className="border-t border-neutral-200 px-3 py-2 dark:border-neutral-800" data-testid="thinking-text">
          {text.trim() ? <Markdown>{text}</Markdown> : <p className="italic">Nothing of it has arrived yet.</p>}
        </div>
      )}
    </section>
  );
}
