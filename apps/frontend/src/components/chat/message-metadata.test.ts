import { describe, expect, it } from 'vitest';
import { answerMetadata, formatUsageSplit } from './message-metadata';

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
