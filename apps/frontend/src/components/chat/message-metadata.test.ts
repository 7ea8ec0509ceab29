import { describe, expect, it } from 'vitest';
import { answerMetadata, formatTokens, formatUsageSplit } from './message-metadata';
import { formatThinkingTime } from './thinking-section';

const split = (own: number, delegated: number) => ({
  own: { inputTokens: own, outputTokens: 0 },
  delegated: { inputTokens: delegated, outputTokens: 0 },
  total: { inputTokens: own + delegated, outputTokens: 0 },
});

describe('answerMetadata', () => {
  it('reads the usage split of a v2 answer', () => {
    expect(answerMetadata({ modelId: 'm', usage: split(10, 5) })).toEqual({ modelId: 'm', usage: split(10, 5) });
  });

  it('counts an older answer’s flat usage as its own tokens', () => {
    const meta = answerMetadata({ modelId: 'm', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } });
    expect(meta.usage).toEqual({
      own: { inputTokens: 7, outputTokens: 3 },
      delegated: { inputTokens: 0, outputTokens: 0 },
      total: { inputTokens: 7, outputTokens: 3 },
    });
    expect(meta.modelId).toBe('m');
  });

  it('keeps the fields of the expected type and drops the rest', () => {
    expect(answerMetadata({ agentId: 'a', durationMs: 'slow', usage: 'lots' })).toEqual({ agentId: 'a' });
    expect(answerMetadata(null)).toEqual({});
  });
});

describe('formatUsageSplit', () => {
  it('says the total alone when nothing was delegated, and the split otherwise', () => {
    expect(formatUsageSplit(split(1234, 0))?.short).toBe('1,234 tokens');
    expect(formatUsageSplit(split(300, 934))?.short).toBe('300 own + 934 delegated = 1,234 tokens');
    expect(formatUsageSplit(split(0, 0))).toBeNull();
    expect(formatUsageSplit(undefined)).toBeNull();
  });
});

describe('estimated usage', () => {
  it('says ≈ for tokens Baton counted because the provider reported none', () => {
    expect(formatTokens(1234, true)).toBe('≈ 1,234 tokens');
    expect(formatTokens(1234)).toBe('1,234 tokens');
    const estimated = { inputTokens: 100, outputTokens: 20, estimated: true };
    expect(formatUsageSplit({ own: estimated, delegated: { inputTokens: 0, outputTokens: 0 }, total: estimated })).toEqual({
      short: '≈ 120 tokens',
      detail: '≈ 100 in, 20 out tokens',
    });
    expect(
      formatUsageSplit({ own: { inputTokens: 5, outputTokens: 5 }, delegated: estimated, total: { ...estimated, inputTokens: 105, outputTokens: 25 } })?.short,
    ).toBe('10 own + ≈ 120 delegated = ≈ 130 tokens');
  });
});

describe('formatThinkingTime', () => {
  it('writes seconds, then minutes and seconds', () => {
    expect(formatThinkingTime(200)).toBe('1 s');
    expect(formatThinkingTime(12_300)).toBe('12 s');
    expect(formatThinkingTime(125_000)).toBe('2 min 5 s');
    expect(formatThinkingTime(120_000)).toBe('2 min');
  });
});
