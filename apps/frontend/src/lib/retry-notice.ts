import type { RunRetryData } from '@baton/schemas';

/** A retry notice as the chat keeps it: the streamed part, and when it arrived (its wait counts from then, on this clock). */
export type RetryNotice = RunRetryData & { receivedAt: number };

/** Whole seconds until the next attempt (0 once due), or undefined when the notice names no wait. */
export function retrySecondsLeft(notice: RetryNotice, now: number): number | undefined {
  if (notice.retryInMs === undefined) return undefined;
  return Math.max(0, Math.ceil((notice.receivedAt + notice.retryInMs - now) / 1000));
}

/**
 * What the chat says while the provider is waited for: a rate limit with its countdown
 * ("Rate limited by the provider, retrying in 12 s…"), any other failure with the attempt.
 */
export function retryNoticeText(notice: RunRetryData, seconds: number | undefined): string {
  if (notice.rateLimited) {
    if (!seconds) return 'Rate limited by the provider, asking again now…';
    // Attempt 1: this call was not refused itself; another call to the provider was, a moment ago.
    return notice.attempt > 1 ? `Rate limited by the provider, retrying in ${seconds} s…` : `Rate limited by the provider, waiting ${seconds} s…`;
  }
  const count = `(${notice.attempt}/${notice.maxAttempts})`;
  return seconds ? `Provider didn’t answer, retrying in ${seconds} s ${count}…` : `Provider didn’t answer, retrying ${count}…`;
}
