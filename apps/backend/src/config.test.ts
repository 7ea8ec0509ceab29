import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig: the default model', () => {
  it('is the demo model inside the backend when nothing is configured', () => {
    expect(loadConfig({}).defaultModel).toEqual({ kind: 'demo' });
  });

  it('is a standalone demo model with BATON_DEMO_MODEL_URL', () => {
    expect(loadConfig({ BATON_DEMO_MODEL_URL: 'http://127.0.0.1:4010/v1' }).defaultModel).toEqual({
      kind: 'demo',
      baseURL: 'http://127.0.0.1:4010/v1',
    });
  });

  it('refuses a BATON_DEMO_MODEL_URL that is not an http(s) URL, naming it', () => {
    expect(() => loadConfig({ BATON_DEMO_MODEL_URL: 'localhost:4010' })).toThrow(/BATON_DEMO_MODEL_URL/);
    expect(() => loadConfig({ BATON_DEMO_MODEL_URL: 'not a url' })).toThrow(/BATON_DEMO_MODEL_URL/);
  });

  it('prefers a real model (OPENAI_API_KEY) over the demo model', () => {
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test', BATON_DEMO_MODEL_URL: 'http://127.0.0.1:4010/v1' });
    expect(config.defaultModel).toMatchObject({ kind: 'openai', modelId: 'gpt-4o-mini' });
  });

  it('takes the default model’s context window from BATON_DEFAULT_CONTEXT_WINDOW, and refuses one that is not a number of tokens', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-test', BATON_DEFAULT_CONTEXT_WINDOW: '40960' }).defaultModel).toMatchObject({ contextWindow: 40_960 });
    expect(loadConfig({ BATON_DEFAULT_CONTEXT_WINDOW: '2000' }).defaultModel).toEqual({ kind: 'demo', contextWindow: 2_000 });
    expect(() => loadConfig({ BATON_DEFAULT_CONTEXT_WINDOW: '32k' })).toThrow(/BATON_DEFAULT_CONTEXT_WINDOW/);
  });
});

describe('loadConfig: trusted proxies', () => {
  it('stops the start on a BATON_TRUSTED_PROXIES entry that is no address or range', () => {
    expect(() => loadConfig({ BATON_TRUSTED_PROXIES: '10.0.0.0/8, proxy.internal' })).toThrow(/BATON_TRUSTED_PROXIES: "proxy.internal"/);
    expect(loadConfig({ BATON_TRUSTED_PROXIES: '10.0.0.0/8' }).auth.trustedProxies?.ranges).toHaveLength(1);
  });
});

describe('loadConfig: limits', () => {
  it('takes an MCP tool call’s deadline from BATON_MCP_CALL_TIMEOUT_MS (60 s by default), and refuses one that is not a number of milliseconds', () => {
    expect(loadConfig({}).mcpCallTimeoutMs).toBe(60_000);
    expect(loadConfig({ BATON_MCP_CALL_TIMEOUT_MS: '5000' }).mcpCallTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ BATON_MCP_CALL_TIMEOUT_MS: '0' })).toThrow(/BATON_MCP_CALL_TIMEOUT_MS/);
    expect(() => loadConfig({ BATON_MCP_CALL_TIMEOUT_MS: '1m' })).toThrow(/BATON_MCP_CALL_TIMEOUT_MS/);
  });
});

describe('loadConfig: what a provider may send', () => {
  it('has limits by default, read from the environment, and refuses values that are not whole numbers', () => {
    expect(loadConfig({}).providerLimits).toEqual({
      maxToolCallsPerStep: 64,
      maxAnswerChars: 1_000_000,
      maxResponseBytes: 64 * 1024 * 1024,
      maxEventBytes: 4 * 1024 * 1024,
    });
    const set = loadConfig({
      BATON_MAX_TOOL_CALLS_PER_STEP: '128',
      BATON_MAX_ANSWER_CHARS: '2000',
      BATON_MODEL_MAX_RESPONSE_BYTES: '1048576',
      BATON_MODEL_MAX_EVENT_BYTES: '65536',
    }).providerLimits;
    expect(set).toEqual({ maxToolCallsPerStep: 128, maxAnswerChars: 2_000, maxResponseBytes: 1_048_576, maxEventBytes: 65_536 });
    expect(() => loadConfig({ BATON_MAX_ANSWER_CHARS: '1MB' })).toThrow(/BATON_MAX_ANSWER_CHARS/);
    // A delegation batch (10 calls) must fit in a step.
    expect(() => loadConfig({ BATON_MAX_TOOL_CALLS_PER_STEP: '5' })).toThrow(/BATON_MAX_TOOL_CALLS_PER_STEP must be at least 10/);
  });
});
