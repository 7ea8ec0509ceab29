import { describe, expect, it } from 'vitest';
import { retryNoticeText, retrySecondsLeft } from './retry-notice';

const at = 1_000_000;

describe('the retry notice', () => {
  it('counts down from when the notice arrived', () => {
    const notice = { attempt: 2, maxAttempts: 6, message: '', retryInMs: 12_000, rateLimited: true, receivedAt: at };
    expect(retrySecondsLeft(notice, at)).toBe(12);
    expect(retrySecondsLeft(notice, at + 500)).toBe(12);
    expect(retrySecondsLeft(notice, at + 1_001)).toBe(11);
    expect(retrySecondsLeft(notice, at + 20_000)).toBe(0);
    expect(retrySecondsLeft({ ...notice, retryInMs: undefined }, at)).toBeUndefined();
  });

  it('says a rate limit and its wait, or the attempt of another failure', () => {
    const limited = { attempt: 2, maxAttempts: 6, message: '', rateLimited: true };
    expect(retryNoticeText(limited, 12)).toBe('Rate limited by the provider, retrying in 12 s…');
    expect(retryNoticeText({ ...limited, attempt: 1 }, 3)).toBe('Rate limited by the provider, waiting 3 s…');
    expect(retryNoticeText(limited, 0)).toBe('Rate limited by the provider, asking again now…');
    const failed = { attempt: 2, maxAttempts: 3, message: 'HTTP 503' };
    expect(retryNoticeText(failed, 2)).toBe('Provider didn’t answer, retrying in 2 s (2/3)…');
    expect(retryNoticeText(failed, undefined)).toBe('Provider didn’t answer, retrying (2/3)…');
  });
});
