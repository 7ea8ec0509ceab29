import { describe, expect, it } from 'vitest';
import { askedWaitMs, sdkRetryDelayMs, waitText } from './model-retries';
import { ProviderBackoff } from './provider-backoff';

const now = Date.parse('2026-11-27T15:00:00Z');

describe('the wait a provider asks for', () => {
  it('reads retry-after-ms first, then Retry-After as seconds or as an HTTP date', () => {
    expect(askedWaitMs({ 'retry-after-ms': '1500', 'retry-after': '30' }, now)).toBe(1500);
    expect(askedWaitMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(askedWaitMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(askedWaitMs({ 'retry-after': 'Fri, 27 Nov 2026 15:00:12 GMT' }, now)).toBe(12_000);
    expect(askedWaitMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(askedWaitMs({}, now)).toBeUndefined();
    expect(askedWaitMs(undefined, now)).toBeUndefined();
  });

  it('is the wait the AI SDK uses when under 60 s, else its backoff (2 s, 4 s, 8 s…)', () => {
    expect(sdkRetryDelayMs(12_000, 1)).toBe(12_000);
    expect(sdkRetryDelayMs(undefined, 1)).toBe(2_000);
    expect(sdkRetryDelayMs(undefined, 3)).toBe(8_000);
    expect(sdkRetryDelayMs(600_000, 2)).toBe(4_000);
    // A date in the past: the backoff.
    expect(sdkRetryDelayMs(-3_000, 1)).toBe(2_000);
  });

  it('is said in words a person reads', () => {
    expect(waitText(600_000)).toBe('10 minutes');
    expect(waitText(60_000)).toBe('60 seconds');
    expect(waitText(1_000)).toBe('1 second');
    expect(waitText(2 * 3600_000)).toBe('2 hours');
  });
});

describe('the shared backoff', () => {
  it('holds a provider back until the latest time it asked for, then forgets it', async () => {
    const backoff = new ProviderBackoff();
    expect(backoff.remainingMs('p')).toBe(0);
    backoff.block('p', 50);
    backoff.block('p', 10);
    expect(backoff.remainingMs('p')).toBeGreaterThan(10);
    expect(backoff.remainingMs('other')).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(backoff.remainingMs('p')).toBe(0);
  });
});
