import { describe, expect, it } from 'vitest';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW, knownContextWindow } from './context-window';

describe('context windows', () => {
  it('knows the published windows of OpenAI’s models, by family, also as OpenRouter names them', () => {
    expect(knownContextWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownContextWindow('openai/gpt-4o')).toBe(128_000);
    expect(knownContextWindow('gpt-4.1-nano')).toBe(1_047_576);
    expect(knownContextWindow('gpt-5.1')).toBe(400_000);
    expect(knownContextWindow('gpt-4-0613')).toBe(8_192);
    expect(knownContextWindow('o3-mini')).toBe(200_000);
    expect(knownContextWindow('o1x')).toBeUndefined();
    expect(knownContextWindow('qwen3-8b')).toBeUndefined();
  });

  it('takes the provider’s setting first, then a known window, then the default', () => {
    expect(contextWindowFor('gpt-4o', { 'gpt-4o': 64_000 })).toBe(64_000);
    expect(contextWindowFor('gpt-4o', { other: 1_000 })).toBe(128_000);
    expect(contextWindowFor('qwen3-8b')).toBe(DEFAULT_CONTEXT_WINDOW);
  });
});
