import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { contextLengthError, describeModelError } from './model-errors';

const refusal = (statusCode: number, body: unknown) =>
  new APICallError({ message: 'Bad Request', url: 'http://p/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: JSON.stringify(body) });
const model = { modelId: 'qwen3-8b', contextWindow: 32_768, setIn: 'provider' } as const;

describe('a provider’s context-length refusal', () => {
  it.each([
    [
      'OpenAI',
      400,
      {
        error: {
          message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
          code: 'context_length_exceeded',
        },
      },
      8_192,
    ],
    [
      'vLLM',
      400,
      {
        object: 'error',
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
        type: 'BadRequestError',
      },
      4_096,
    ],
    [
      'OpenRouter',
      400,
      { error: { message: "This endpoint's maximum context length is 16,384 tokens. However, you requested about 20,000 tokens.", code: 400 } },
      16_384,
    ],
    [
      'LM Studio',
      400,
      {
        error:
          'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.',
      },
      4_096,
    ],
    [
      'llama.cpp',
      400,
      { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } },
      undefined,
    ],
  ])('%s: recognised, with the limit it names', (_server, status, body, limit) => {
    expect(contextLengthError(refusal(status, body))).toEqual(limit === undefined ? {} : { limit });
  });

  it('is explained in words a person can act on: where to set the window, or to start a new chat', () => {
    const vllm = refusal(400, { message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens." });
    expect(describeModelError(vllm, null, model)).toBe(
      'The conversation is too long for model qwen3-8b: the provider allows 4,096 tokens, and Baton assumed 32,768 tokens. Set the model’s context window in Settings → Providers to 4,096, so Baton leaves older messages out, or start a new chat.',
    );
    const llamaCpp = refusal(400, {
      error: { message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' },
    });
    expect(describeModelError(llamaCpp, null, { ...model, setIn: 'environment' })).toBe(
      'The conversation is too long for model qwen3-8b (context window 32,768 tokens). Start a new chat, or set BATON_DEFAULT_CONTEXT_WINDOW on the server to what the model really supports.',
    );
  });

  it('leaves other refusals alone', () => {
    expect(contextLengthError(refusal(400, { error: { message: 'Invalid value for temperature' } }))).toBeUndefined();
    expect(contextLengthError(refusal(500, { error: { message: 'maximum context length is 10 tokens' } }))).toBeUndefined();
    expect(describeModelError(refusal(400, { error: { message: 'Invalid value for temperature' } }), null, model)).toBe(
      'The model provider returned an error (HTTP 400): Invalid value for temperature',
    );
  });
});
