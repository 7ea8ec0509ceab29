import { type AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useOpenAiClient } from './support/openai-client';
import { useTestApp } from './support/test-app';

// Issue 21: LangChain's ChatOpenAI pointed at Baton's /v1, with what it does by default and
// with its tool binding, structured output and the Responses API.
const t = useTestApp({ demoDelayMs: 1 });
const { agentNamed } = useOpenAiClient(t);

const chatModel = (model: string, options: { useResponsesApi?: boolean; streaming?: boolean } = {}) =>
  new ChatOpenAI({ model, apiKey: t.owner.apiKey, configuration: { baseURL: `${t.baseUrl}/v1` }, maxRetries: 0, ...options });

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('LangChain ChatOpenAI against /v1', () => {
  it('invokes and streams an agent (Chat Completions)', async () => {
    const assistant = await agentNamed('Assistant');
    const answer = await chatModel(assistant.id).invoke('Hello from LangChain');
    expect(String(answer.content)).toContain('Hello from LangChain');
    expect(answer.usage_metadata?.total_tokens).toBeGreaterThan(0);

    const chunks: string[] = [];
    for await (const chunk of await chatModel(assistant.id, { streaming: true }).stream('Stream this, please')) chunks.push(String(chunk.content));
    expect(chunks.filter(Boolean).length).toBeGreaterThan(3);
    expect(chunks.join('')).toContain('Stream this, please');
  });

  it('bindTools: the call comes back as LangChain tool_calls, and a ToolMessage gets the answer', async () => {
    const assistant = await agentNamed('Assistant');
    const model = chatModel(assistant.id).bindTools([weather]);
    const ask = new HumanMessage('/tool get_weather {"city":"Oslo"}');
    const called = (await model.invoke([ask])) as AIMessage;
    expect(called.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Oslo' } })]);
    const answer = await model.invoke([ask, called, new ToolMessage({ tool_call_id: called.tool_calls![0]!.id!, content: '{"sky":"snow"}' })]);
    expect(String(answer.content)).toContain('snow');
  });

  it('withStructuredOutput gives an object of the schema', async () => {
    const assistant = await agentNamed('Assistant');
    const schema = z.object({ title: z.string(), stars: z.number(), tags: z.array(z.string()) });
    const out = await chatModel(assistant.id).withStructuredOutput(schema, { name: 'review' }).invoke('Review: otters are great');
    expect(schema.safeParse(out).success).toBe(true);
  });

  it('useResponsesApi: invoke and bound tools through POST /v1/responses', async () => {
    const assistant = await agentNamed('Assistant');
    const before = t.demo.requests.length;
    const answer = await chatModel(assistant.id, { useResponsesApi: true }).invoke('Hello through Responses');
    expect(String(typeof answer.content === 'string' ? answer.content : JSON.stringify(answer.content))).toContain('Hello through Responses');
    expect(t.demo.requests.length).toBeGreaterThan(before);
    const called = (await chatModel(assistant.id, { useResponsesApi: true }).bindTools([weather]).invoke('/tool get_weather {"city":"Bergen"}')) as AIMessage;
    expect(called.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Bergen' } })]);
  });
});
