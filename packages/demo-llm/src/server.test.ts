// The demo model on a real socket, as the standalone server and benchmarks run it.
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoLlmServer, startDemoLlmServer } from './listen';
import { modelAt, newTask } from './test-support';

let server: DemoLlmServer;

beforeAll(async () => {
  server = await startDemoLlmServer({ port: 0, delayMs: 10 });
});
afterAll(() => server.close());

describe('over HTTP', () => {
  it('listens on a random port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect(server.baseURL).toBe(`${server.url}/v1`);
  });

  it('streams words incrementally through the AI SDK', async () => {
    const result = streamText({ model: modelAt(server.baseURL), prompt: 'Hello over the wire' });
    const arrivals: number[] = [];
    for await (const _ of result.textStream) arrivals.push(performance.now());
    expect(arrivals.length).toBeGreaterThan(20);
    // With 10 ms between words, the chunks cannot all have arrived together.
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(10 * (arrivals.length - 1) * 0.8);
    expect(await result.text).toContain('> Hello over the wire');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
  });

  it('delegates through the AI SDK', async () => {
    const { toolCalls } = await generateText({ model: modelAt(server.baseURL), tools: { newTask }, prompt: '/delegate Writer: a haiku' });
    expect(toolCalls[0]?.input).toEqual({ subAgentId: 'agent_wri_2', task: 'a haiku' });
  });

  it('sends well-formed chunks, usage and [DONE] on the wire', async () => {
    const res = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'baton-demo',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: '/delegate Researcher: facts' }],
        tools: [{ type: 'function', function: { name: 'newTask', description: '- Researcher (id: r1): x', parameters: {} } }],
      }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'baton-demo')).toBe(true);
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'newTask' } });
    expect(JSON.parse(toolDeltas.map((d: { function: { arguments: string } }) => d.function.arguments).join(''))).toEqual({ subAgentId: 'r1', task: 'facts' });
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: expect.any(Number) } });
  });

  it('[demo:drop] breaks the connection mid-stream', async () => {
    const result = streamText({ model: modelAt(server.baseURL), maxRetries: 0, prompt: 'hi [demo:drop]', onError: () => {} });
    let text = '';
    await expect(
      (async () => {
        for await (const part of result.fullStream) if (part.type === 'text-delta') text += part.text;
      })(),
    ).rejects.toThrow();
    expect(text).toBe("This is Baton's offline demo ");
  });

  it('[demo:error] answers 500 with an OpenAI error body', async () => {
    await expect(generateText({ model: modelAt(server.baseURL), maxRetries: 0, prompt: '[demo:error]' })).rejects.toMatchObject({
      statusCode: 500,
      message: expect.stringContaining('[demo:error]'),
    });
  });
});
