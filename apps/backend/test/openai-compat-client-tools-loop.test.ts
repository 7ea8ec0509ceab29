import { createOpenAI } from '@ai-sdk/openai';
import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { asc, eq } from 'drizzle-orm';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { run } from '../src/db/schema';
import { postStream, userMessage } from './support/chat-client';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// /v1 client tools driven by agent frameworks: the AI SDK's own tool loop against Baton, and a
// chat in which the agent delegates on the server and then calls the caller's tool.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const { client, agentNamed, storedAnswer, waitUntilIdle } = useOpenAiClient(t);

type Sent = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];
type Part = { type: string; state?: string; output?: unknown };

const weatherTool = (calls: unknown[]) =>
  tool({
    description: 'The weather in a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async (input) => {
      calls.push(input);
      return `Sunny in ${input.city}`;
    },
  });

describe('/v1 client tools with the AI SDK as the client', () => {
  it('generateText runs the whole tool loop against Baton: call, output, final answer', async () => {
    const writer = await agentNamed('Writer');
    const baton = createOpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey: t.owner.apiKey });
    const calls: unknown[] = [];
    const before = t.demo.requests.length;
    const result = await generateText({
      model: baton.chat(writer.id),
      tools: { lookup_weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
      prompt: '/tool lookup_weather {"city":"Oslo"}',
    });
    expect(calls).toEqual([{ city: 'Oslo' }]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ toolName: 'lookup_weather', input: { city: 'Oslo' } });
    expect(result.finishReason).toBe('stop');
    expect(result.text).toContain('Sunny in Oslo');
    expect(result.totalUsage.outputTokens).toBeGreaterThan(0);
    // The second step reached the model with the tool's output as a tool message.
    const sent = sentSince(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Sunny in Oslo' });
    // Stateless (no X-Baton-Chat-Id): the second step's history is a chat of its own, whose answer went on from the output.
    const id = result.response.id.replace(/^chatcmpl-/, '');
    const { data: sidebar } = await json(await t.request(`${ws}/chats?limit=100`));
    const titled = sidebar.filter((c: { title: string }) => c.title.includes('lookup_weather'));
    expect(titled.length).toBeGreaterThanOrEqual(2);
    const chats = await Promise.all(titled.map((c: { id: string }) => storedAnswer(c.id)));
    const last = chats.find((c) => c.last.id === id)!;
    expect(last.last.parts.find((p: Part) => p.type === 'tool-lookup_weather')).toMatchObject({ state: 'output-available', output: 'Sunny in Oslo' });
  });

  it('streamText does the same, keeping one chat when the caller sends X-Baton-Chat-Id', async () => {
    const writer = await agentNamed('Writer');
    const first = await client()
      .chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: 'Open a chat' }] })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const baton = createOpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey: t.owner.apiKey, headers: { [BATON_CHAT_ID_HEADER]: chatId } });
    const calls: unknown[] = [];
    const result = streamText({
      model: baton.chat(writer.id),
      tools: { lookup_weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
      prompt: '/tool lookup_weather {"city":"Tromsø"}',
    });
    expect(await result.text).toContain('Sunny in Tromsø');
    expect(calls).toEqual([{ city: 'Tromsø' }]);
    const { body, last } = await storedAnswer(chatId);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(last.parts.find((p: Part) => p.type === 'tool-lookup_weather')).toMatchObject({ state: 'output-available', output: 'Sunny in Tromsø' });
  });
});

describe('/v1 client tools next to delegation', () => {
  it('delegates on the server and calls the caller tool in one chat; every run ends and none blocks the next', async () => {
    const assistant = await agentNamed('Assistant');
    const weather: OpenAI.Chat.Completions.ChatCompletionTool = {
      type: 'function',
      function: { name: 'lookup_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    const before = t.demo.requests.length;
    const delegated = await client()
      .chat.completions.create({ model: assistant.id, tools: [weather], messages: [{ role: 'user', content: '/delegate Researcher: facts about otters' }] })
      .withResponse();
    const chatId = delegated.response.headers.get(BATON_CHAT_ID_HEADER)!;
    expect(delegated.data.choices[0]!.finish_reason).toBe('stop');
    expect((delegated.data.usage as unknown as { baton: { delegated: { inputTokens: number } } }).baton.delegated.inputTokens).toBeGreaterThan(0);
    // The model was offered both: its own delegation tool and the caller's tool.
    expect(
      sentSince(before)[0]!
        .tools!.map((x) => x.function.name)
        .sort(),
    ).toEqual(['lookup_weather', 'newTask']);
    const { data: subChats } = await json(await t.request(`${ws}/chats/${chatId}/sub-chats`));
    expect(subChats).toMatchObject([{ status: 'success' }]);

    const continuing = client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } });
    const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: '/delegate Researcher: facts about otters' },
      { role: 'assistant', content: delegated.data.choices[0]!.message.content },
      { role: 'user', content: '/tool lookup_weather {"city":"Oslo"}' },
    ];
    const asked = await continuing.chat.completions.create({ model: assistant.id, tools: [weather], messages: history });
    expect(asked.choices[0]!.finish_reason).toBe('tool_calls');
    const call = asked.choices[0]!.message.tool_calls![0]!;
    // The answer that waits for the caller has ended: its run succeeded and the chat takes the outputs.
    const waiting = await t.handle.db.select().from(run).where(eq(run.chatId, chatId)).orderBy(asc(run.startedAt));
    expect(waiting.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    const answered = await continuing.chat.completions.create({
      model: assistant.id,
      tools: [weather],
      messages: [...history, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'Cloudy' }],
    });
    expect(answered.choices[0]!.finish_reason).toBe('stop');
    expect(answered.choices[0]!.message.content).toContain('Cloudy');
    const runs = await t.handle.db.select().from(run).where(eq(run.chatId, chatId)).orderBy(asc(run.startedAt));
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // The continuation wrote the same message the call waited in, after its parts so far.
    expect(runs[2]!.messageId).toBe(runs[1]!.messageId);
    expect(runs[2]!.basePartCount).toBeGreaterThan(0);
    const { body } = await storedAnswer(chatId);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(body.messages[1].parts.some((p: Part) => p.type === 'tool-newTask' && p.state === 'output-available')).toBe(true);
  });
});

describe('/v1 client tools in the web app', () => {
  it('a person writing in the chat instead of the API client ends the waiting call, and the agent answers', async () => {
    const writer = await agentNamed('Writer');
    const weather = { type: 'function' as const, function: { name: 'lookup_weather', parameters: { type: 'object', properties: {} } } };
    const first = await client()
      .chat.completions.create({ model: writer.id, tools: [weather], messages: [{ role: 'user', content: '/tool lookup_weather {"city":"Oslo"}' }] })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const res = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: userMessage(`msg_web_${Date.now()}`, 'Forget the weather') });
    expect(res.status).toBe(200);
    await waitUntilIdle(chatId);
    const { body, text } = await storedAnswer(chatId);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(body.messages[1].parts.find((p: Part) => p.type === 'tool-lookup_weather')).toMatchObject({ state: 'output-error' });
    expect(text).toContain('Forget the weather');
  });
});
