import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, streamText, tool } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { startProviderSimulator, type ProviderSimulator } from './listen';

const servers: ProviderSimulator[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function sim(options: Parameters<typeof startProviderSimulator>[0]) {
  const s = await startProviderSimulator({ delayMs: 0, ...options });
  servers.push(s);
  return s;
}

const post = (s: ProviderSimulator, body: Record<string, unknown>) =>
  fetch(`${s.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const user = (content: string) => [{ role: 'user', content }];

/** The parsed `data:` payloads of an SSE body (without `[DONE]`). */
async function events(res: Response): Promise<Record<string, any>[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((e) => e.replace(/^data: /, '').trim())
    .filter((e) => e !== '' && e !== '[DONE]')
    .map((e) => JSON.parse(e));
}

const delegateTool = {
  newTask: tool({
    description: 'Delegate.\n- Writer (id: agent_w): writes',
    inputSchema: jsonSchema<{ subAgentId: string; task: string }>({ type: 'object' }),
  }),
};

describe('the provider simulator', () => {
  it('answers through the AI SDK like the demo model, under any model id', async () => {
    const s = await sim({});
    const model = createOpenAI({ baseURL: s.baseURL, apiKey: 'x' }).chat('whatever-model');
    const result = streamText({ model, prompt: 'Hello there' });
    expect(await result.text).toContain('Hello there');
    expect((await result.usage).inputTokens).toBeGreaterThan(0);
    expect(s.requests.at(-1)?.model).toBe('whatever-model');
  });

  it('is silent after the headers for silenceMs, then answers', async () => {
    const s = await sim({ behaviour: { silenceMs: 300 } });
    const started = Date.now();
    const res = await post(s, { model: 'm', stream: true, messages: user('hi') });
    const headersAfter = Date.now() - started;
    const reader = res.body!.getReader();
    await reader.read();
    const firstByteAfter = Date.now() - started;
    await reader.cancel();
    expect(headersAfter).toBeLessThan(250);
    expect(firstByteAfter).toBeGreaterThanOrEqual(290);
  });

  it.each(['reasoning_content', 'reasoning', 'reasoning_details'] as const)('streams reasoning in %s and counts its tokens', async (field) => {
    const s = await sim({ behaviour: { reasoning: { field, text: 'one two three four', chunks: 4 } } });
    const all = await events(await post(s, { model: 'm', stream: true, stream_options: { include_usage: true }, messages: user('hi') }));
    const reasoning = all
      .flatMap((e) => e.choices)
      .map((c) => c.delta[field === 'reasoning_details' ? 'reasoning' : field])
      .filter(Boolean);
    expect(reasoning.join('')).toBe('one two three four');
    expect(reasoning.length).toBe(4);
    const usage = all.at(-1)!.usage;
    expect(usage.completion_tokens_details).toEqual({ reasoning_tokens: 4 });
    if (field === 'reasoning_details')
      expect(
        all
          .flatMap((e) => e.choices)
          .flatMap((c) => c.delta.reasoning_details ?? [])
          .map((d: { text: string }) => d.text)
          .join(''),
      ).toBe('one two three four');
  });

  it('reports no usage when usage is false, even when asked', async () => {
    const s = await sim({ behaviour: { usage: false } });
    const all = await events(await post(s, { model: 'm', stream: true, stream_options: { include_usage: true }, messages: user('hi') }));
    expect(all.some((e) => e.usage)).toBe(false);
    const json = await (await post(s, { model: 'm', messages: user('hi') })).json();
    expect(json.usage).toBeNull();
  });

  it('answers 429 with Retry-After the first n times', async () => {
    const s = await sim({ behaviour: { rateLimit: { times: 2, retryAfter: '3' } } });
    const first = await post(s, { model: 'm', messages: user('hi') });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await first.json()).error.code).toBe('rate_limit_exceeded');
    expect((await post(s, { model: 'm', messages: user('hi') })).status).toBe(429);
    expect((await post(s, { model: 'm', messages: user('hi') })).status).toBe(200);
  });

  it('refuses tools in the words of Ollama and vLLM', async () => {
    const ollama = await sim({ behaviour: { refuseTools: 'ollama' } });
    const tools = [{ type: 'function', function: { name: 'calc' } }];
    const refused = await post(ollama, { model: 'gemma:2b', messages: user('hi'), tools });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toBe('registry.ollama.ai/library/gemma:2b does not support tools');
    expect((await post(ollama, { model: 'gemma:2b', messages: user('hi') })).status).toBe(200);
    const vllm = await sim({ behaviour: { refuseTools: 'vllm' } });
    expect((await (await post(vllm, { model: 'q', messages: user('hi'), tools })).json()).message).toMatch(/enable-auto-tool-choice/);
  });

  it('has a context window: listed in the model list, a longer prompt is refused as OpenAI does', async () => {
    const s = await sim({ models: { small: { contextWindow: 50, modelsListField: 'max_model_len' }, big: { contextWindow: 100_000 } } });
    const list = await (await fetch(`${s.baseURL}/models`)).json();
    expect(list.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'small', max_model_len: 50 }), expect.objectContaining({ id: 'big', context_length: 100_000 })]),
    );
    const long = user('word '.repeat(100));
    const refused = await post(s, { model: 'small', messages: long });
    expect(refused.status).toBe(400);
    const error = (await refused.json()).error;
    expect(error.code).toBe('context_length_exceeded');
    expect(error.message).toMatch(/maximum context length is 50 tokens/);
    expect((await post(s, { model: 'big', messages: long })).status).toBe(200);
  });

  it('splits tool-call arguments per character and interleaves parallel calls; the AI SDK still assembles them', async () => {
    const s = await sim({ behaviour: { toolArgumentChunkSize: 1, interleaveToolCalls: true } });
    const body = {
      model: 'm',
      stream: true,
      messages: user('/delegate Writer: one\n/delegate Writer: two'),
      tools: [{ type: 'function', function: { name: 'newTask', description: 'Delegate.\n- Writer (id: agent_w): writes' } }],
    };
    const all = await events(await post(s, body));
    const indexes = all
      .flatMap((e) => e.choices)
      .flatMap((c) => c.delta.tool_calls ?? [])
      .map((t: { index: number }) => t.index);
    // Headers 0, 1, then the argument pieces alternate.
    expect(indexes.slice(0, 4)).toEqual([0, 1, 0, 1]);

    const model = createOpenAI({ baseURL: s.baseURL, apiKey: 'x' }).chat('m');
    const result = streamText({ model, prompt: '/delegate Writer: one\n/delegate Writer: two', tools: delegateTool });
    const calls = await result.toolCalls;
    expect(calls.map((c) => c.input)).toEqual([
      { subAgentId: 'agent_w', task: 'one' },
      { subAgentId: 'agent_w', task: 'two' },
    ]);
  });

  it('records requests and can change its behaviour while running', async () => {
    const s = await sim({});
    expect((await post(s, { model: 'm', messages: user('a') })).status).toBe(200);
    s.setBehaviour({ failWith: { status: 503, times: 1 } });
    expect((await post(s, { model: 'm', messages: user('b') })).status).toBe(503);
    expect((await post(s, { model: 'm', messages: user('c') })).status).toBe(200);
    expect(s.requests.map((r) => r.messages[0]!.content)).toEqual(['a', 'b', 'c']);
  });
});
