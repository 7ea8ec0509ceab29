import { describe, expect, it } from 'vitest';
import { buildProviderInput, toProviderFormValues, withReportedWindows } from './provider-form-values';

const values = (over: Partial<ReturnType<typeof toProviderFormValues>>) => ({
  ...toProviderFormValues(),
  name: 'Local vLLM',
  baseUrl: 'http://127.0.0.1:8000/v1',
  ...over,
});

describe('context windows in the provider form', () => {
  it('saves the windows of the listed models as numbers; empty means the default, and unlisted models are dropped', () => {
    const { input } = buildProviderInput(
      values({ modelIds: 'qwen3-8b\nllama3', contextWindows: { 'qwen3-8b': '40,960', llama3: ' ', gone: '4096' } }),
      'create',
    );
    expect(input?.contextWindows).toEqual({ 'qwen3-8b': 40_960 });
  });

  it('refuses what is not a whole number of tokens in range, naming the model', () => {
    for (const typed of ['4k', '100', '12.5']) {
      const { input, errors } = buildProviderInput(values({ modelIds: 'qwen3-8b', contextWindows: { 'qwen3-8b': typed } }), 'update');
      expect(input).toBeUndefined();
      expect(errors.fields.contextWindows).toBe('The context window of qwen3-8b must be a whole number of tokens from 256 to 10,000,000.');
    }
  });

  it('fills what the provider reported only where nothing was typed', () => {
    expect(withReportedWindows({ a: '8000', b: '' }, { a: 4_096, b: 32_768, c: 131_072 })).toEqual({ a: '8000', b: '32768', c: '131072' });
  });
});
