import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useOpenAiClient } from './support/openai-client';
import { useTestApp } from './support/test-app';

// The AI SDK's default OpenAI model — `createOpenAI(...)(id)`, which speaks the Responses API —
// against Baton's /v1/responses over a real socket.
const t = useTestApp({ demoDelayMs: 1 });
const { agentNamed, storedAnswer } = useOpenAiClient(t);

/** What the AI SDK sent to Baton, request by request. */
const bodies: { input: { type?: string; role?: string; id?: string }[] }[] = [];
const baton = () =>
  createOpenAI({
    baseURL: `${t.baseUrl}/v1`,
    apiKey: t.owner.apiKey,
    fetch: async (url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return fetch(url, init);
    },
  });
type Sent = { messages: { role: string; content: unknown }[] };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];

describe("the AI SDK's Responses model against Baton", () => {
  it('generateText: the answer, its usage and the chat it was stored in', async () => {
    const assistant = await agentNamed('Assistant');
    const result = await generateText({ model: baton()(assistant.id), system: 'Be brief.', prompt: 'Hello from generateText' });
    expect(result.text).toContain('Hello from generateText');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.response.id).toMatch(/^resp_/);
    const chatId = result.response.headers!['x-baton-chat-id']!;
    const stored = await storedAnswer(chatId);
    expect(stored.text).toBe(result.text);
    expect(stored.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant']);
  });

  it('streamText: the text in several deltas, the finish and the usage', async () => {
    const assistant = await agentNamed('Assistant');
    const result = streamText({ model: baton()(assistant.id), prompt: 'Hello from streamText' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toContain('Hello from streamText');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
    expect((await result.response).id).toMatch(/^resp_/);
  });

  it("generateText's tool loop: the call, the caller's output, the final answer", async () => {
    const writer = await agentNamed('Writer');
    const calls: unknown[] = [];
    const before = t.demo.requests.length;
    const sentBefore = bodies.length;
    const result = await generateText({
      model: baton()(writer.id),
      tools: {
        lookup_weather: tool({
          description: 'The weather in a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
          execute: async (input) => {
            calls.push(input);
            return `Sunny in ${input.city}`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
      prompt: '/tool lookup_weather {"city":"Oslo"}',
    });
    expect(calls).toEqual([{ city: 'Oslo' }]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(result.text).toContain('Sunny in Oslo');
    const sent = sentSince(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Sunny in Oslo' });
    // The second step resent the conversation as items: the assistant's text before its call by
    // reference to the first response's message item (stored responses), the call and its output.
    const second = bodies[sentBefore + 1]!.input.map((i) => i.type ?? i.role);
    expect(second).toEqual(['user', 'item_reference', 'function_call', 'function_call_output']);
    expect(sent[1]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
  });

  it('structured output: text.format reaches the model as response_format, and the answer parses', async () => {
    const writer = await agentNamed('Writer');
    const schema = z.object({ title: z.string(), tags: z.array(z.string()), rating: z.number() });
    const { output } = await generateText({ model: baton()(writer.id), output: Output.object({ schema }), prompt: 'Name a river' });
    expect(schema.parse(output)).toEqual(output);
    const streamed = streamText({ model: baton()(writer.id), output: Output.object({ schema }), prompt: 'Name a lake' });
    expect(schema.parse(await streamed.output)).toBeTruthy();
  });
});
