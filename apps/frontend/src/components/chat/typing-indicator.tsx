import type { RetryNotice as Notice } from '@/lib/retry-notice';
import { RetryNotice } from './retry-notice';

/**
 * Three pulsing dots while the agent has not said anything yet; while the provider is
 * being asked again after a failure, why and when instead (see retry-notice.tsx).
 */
export function TypingIndicator({ retry }: { retry?: Notice }) {
  if (retry) return <RetryNotice retry={retry} />;
  return (
    <li className="flex justify-start">
      <div role="status" aria-label="The agent is thinking" className="flex items-center gap-1 px-1 py-2">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="h-2 w-2 animate-pulse rounded-full bg-neutral-400 dark:bg-neutral-500"
            style={{ animationDelay: `${delay}ms` }}
            aria-hidden
          />
        ))}
      </div>
    </li>
  );
}
