import type { RetryNotice as Notice } from '@/lib/retry-notice';
import { useEffect, useState } from 'react';
import { RetryNotice } from './retry-notice';

/** Whole seconds since the component was shown, ticking once a second. */
function useSecondsShown(): number {
  const [shownAt] = useState(() => Date.now());
  const [now, setNow] = useState(shownAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return Math.floor((now - shownAt) / 1_000);
}

/**
 * While the model shows nothing: three pulsing dots, "Thinking…" and, from the first second
 * on, for how long (a reasoning model can think for minutes before its first word). The
 * words are announced once (a status); the seconds are a timer, which screen readers read
 * when asked rather than every second. While the provider is being asked again after a
 * failure, why and when instead (see retry-notice.tsx).
 */
export function TypingIndicator({ retry }: { retry?: Notice }) {
  const seconds = useSecondsShown();
  if (retry) return <RetryNotice retry={retry} />;
  return (
    <li className="flex justify-start">
      <div className="flex items-center gap-2 px-1 py-2 text-sm text-neutral-500 dark:text-neutral-400">
        <span className="flex items-center gap-1" aria-hidden>
          {[0, 150, 300].map((delay) => (
            <span
              key={delay}
              className="h-2 w-2 animate-pulse rounded-full bg-neutral-400 motion-reduce:animate-none dark:bg-neutral-500"
              style={{ animationDelay: `${delay}ms` }}
            />
          ))}
        </span>
        <span role="status">Thinking…</span>
        {seconds > 0 && (
          <span role="timer" aria-label={`for ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`} className="tabular-nums">
            {seconds} s
          </span>
        )}
      </div>
    </li>
  );
}
