import type { RunRetryData } from '@baton/schemas';
import { RefreshCw } from 'lucide-react';

/**
 * Three pulsing dots while the agent has not said anything yet; while the provider is
 * being asked again after a failure, which attempt this is instead (the reason on hover).
 */
export function TypingIndicator({ retry }: { retry?: RunRetryData }) {
  if (retry) {
    return (
      <li className="flex justify-start">
        <p role="status" title={retry.message} className="flex items-center gap-2 px-1 py-2 text-sm text-amber-700 dark:text-amber-400">
          <RefreshCw className="h-3.5 w-3.5 animate-spin motion-reduce:animate-none" aria-hidden />
          Provider didn’t answer, retrying ({retry.attempt}/{retry.maxAttempts})…
        </p>
      </li>
    );
  }
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
