'use client';

import { RefreshCw } from 'lucide-react';
import { type RetryNotice as Notice, retryNoticeText, retrySecondsLeft } from '@/lib/retry-notice';
import { useNow } from '@/lib/use-now';

/**
 * While the provider is asked again: why, and a countdown to the next attempt (the reason
 * on hover). The countdown ticks for the eye only; a screen reader hears the notice once,
 * with the wait it started with, not a number every second.
 */
export function RetryNotice({ retry }: { retry: Notice }) {
  const now = useNow(retry.retryInMs !== undefined, 500);
  const ticking = retryNoticeText(retry, retrySecondsLeft(retry, Math.max(now, retry.receivedAt)));
  const announced = retryNoticeText(retry, retry.retryInMs === undefined ? undefined : Math.ceil(retry.retryInMs / 1000));
  return (
    <li className="flex justify-start">
      <p role="status" title={retry.message} className="flex items-center gap-2 px-1 py-2 text-sm text-amber-700 dark:text-amber-400">
        <RefreshCw className="h-3.5 w-3.5 animate-spin motion-reduce:animate-none" aria-hidden />
        <span aria-hidden data-testid="retry-notice">
          {ticking}
        </span>
        <span className="sr-only">{announced}</span>
      </p>
    </li>
  );
}
