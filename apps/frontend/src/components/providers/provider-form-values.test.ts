import { describe, expect, it } from 'vitest';
import {
  buildProviderInput,
  KEY_FOR_NEW_HOST_MESSAGE,
  pdfInputHint,
  storedKeyWouldMove,
  toProviderFormValues,
  withReportedWindows,
} from './provider-form-values';

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

describe('PDF input in the provider form', () => {
  it('starts Automatic, sends the choice, and says what Automatic picks for the base URL', () => {
    expect(toProviderFormValues().pdfInput).toBe('auto');
    expect(buildProviderInput(values({}), 'create').input?.pdfInput).toBe('auto');
    expect(buildProviderInput(values({ pdfInput: 'text' }), 'update').input?.pdfInput).toBe('text');
    expect(pdfInputHint({ pdfInput: 'auto', baseUrl: 'https://api.openai.com/v1' })).toMatch(/sent as files/);
    expect(pdfInputHint({ pdfInput: 'auto', baseUrl: 'http://127.0.0.1:8000/v1' })).toMatch(/gets the text Baton extracts/);
    expect(pdfInputHint({ pdfInput: 'file', baseUrl: 'http://127.0.0.1:8000/v1' })).toMatch(/sent as files/);
  });
});

describe('a stored key and a base URL on another host', () => {
  const stored = {
    id: 'p1',
    workspaceId: 'w',
    name: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    hasApiKey: true,
    modelIds: [],
    contextWindows: {},
    pdfInput: 'auto' as const,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const edit = (over: Partial<ReturnType<typeof toProviderFormValues>>) => ({ ...toProviderFormValues(stored), ...over });

  it('asks for the key again before saving, since the stored one only goes to its own host', () => {
    const moved = edit({ baseUrl: 'https://elsewhere.example/v1' });
    expect(storedKeyWouldMove(moved, stored)).toBe(true);
    const { input, errors } = buildProviderInput(moved, 'update', stored);
    expect(input).toBeUndefined();
    expect(errors.fields.apiKey).toBe(KEY_FOR_NEW_HOST_MESSAGE);
  });

  it('saves with a key typed again, with the key removed, or on the same host', () => {
    expect(buildProviderInput(edit({ baseUrl: 'https://elsewhere.example/v1', apiKey: 'sk-new' }), 'update', stored).input).toMatchObject({ apiKey: 'sk-new' });
    expect(buildProviderInput(edit({ baseUrl: 'https://elsewhere.example/v1', clearApiKey: true }), 'update', stored).input).toMatchObject({ apiKey: null });
    const samePlace = buildProviderInput(edit({ baseUrl: 'https://api.openai.com/v2' }), 'update', stored).input;
    expect(samePlace).toBeDefined();
    expect(samePlace).not.toHaveProperty('apiKey');
  });
});
