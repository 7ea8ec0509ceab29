import { describe, expect, it } from 'vitest';
import { formatTimeAgo } from './format-date';

const now = Date.parse('2026-11-24T12:00:00Z');
const ago = (ms: number) => formatTimeAgo(new Date(now - ms).toISOString(), now, 'en');
const MIN = 60_000;

describe('how long ago a key was last used', () => {
  it('counts in the largest whole unit', () => {
    expect(ago(20_000)).toBe('just now');
    expect(ago(5 * MIN)).toBe('5 minutes ago');
    expect(ago(3 * 60 * MIN + 10 * MIN)).toBe('3 hours ago');
    expect(ago(24 * 60 * MIN)).toBe('yesterday');
    expect(ago(45 * 24 * 60 * MIN)).toBe('last month');
    expect(ago(800 * 24 * 60 * MIN)).toBe('2 years ago');
  });
});
