import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { collect, useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// /v1 client tools with the official OpenAI client: the caller's tools join the agent's, a call
// of one ends the answer with finish_reason "tool_calls", and tool messages continue the same
// chat and message. The demo model calls an offered tool on a line `/tool <name> <json>`.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const { client, agentNamed, storedAnswer } = useOpenAiClient(t);

type Sent = { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: { function: { name: string } }[] };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];

const weather: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'lookup_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const ask = '/tool lookup_weather {"city":"Oslo"}';
type Part = { type: string; state?: string; toolCallId?: string; output?: unknown; errorText?: string; text?: string };

describe('/v1 client tools', () => {
  it('returns a call of a client tool, then continues the same message with the tool message (not streamed)', async () => {
    const writer = await agentNamed('Writer');
    const before = t.demo.requests.length;
    const first = await client()
      .chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: ask }], tools: [weather] })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const choice = first.data.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(choice.message.tool_calls).toHaveLength(1);
    expect(call.type).toBe('function');
    expect(call.function.name).toBe('lookup_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });
    expect(first.data.usage!.total_tokens).toBeGreaterThan(0);
    // The model was offered the caller's tool.
    expect(sentSince(before)[0]!.tools!.map((x) => x.function.name)).toContain('lookup_weather');
    // The run ended: the chat is not busy, and its message waits for the call's output.
    expect(await t.isAnswering(chatId)).toBe(false);
    const waiting = await storedAnswer(chatId);
    const pending = waiting.last.parts.find((p: Part) => p.type === 'tool-lookup_weather');
    expect(pending).toMatchObject({ state: 'input-available', toolCallId: call.id, input: { city: 'Oslo' } });

    const next = t.demo.requests.length;
    const second = await client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } })
      .chat.completions.create({
        model: writer.id,
        tools: [weather],
        messages: [
          { role: 'user', content: ask },
          { role: 'assistant', content: choice.message.content, tool_calls: choice.message.tool_calls },
          { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 degrees' },
        ],
      })
      .withResponse();
    expect(second.response.headers.get(BATON_CHAT_ID_HEADER)).toBe(chatId);
    const answer = second.data.choices[0]!;
    expect(answer.finish_reason).toBe('stop');
    expect(answer.message.tool_calls).toBeUndefined();
    expect(answer.message.content).toContain('Sunny, 21 degrees');
    // Only this call's part of the answer: not the text written before the call.
    expect(answer.message.content).not.toContain(choice.message.content ?? '\u0000');
    expect(second.data.usage!.completion_tokens).toBeGreaterThan(0);
    // The model got the output as a tool message answering its call.
    const [request] = sentSince(next);
    expect(request!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 degrees' });

    // One assistant message, continued: the call has its output, the answer follows it.
    const done = await storedAnswer(chatId);
    expect(done.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(done.last.id).toBe(waiting.last.id);
    expect(second.data.id).toBe(first.data.id);
    expect(done.last.parts.find((p: Part) => p.type === 'tool-lookup_weather')).toMatchObject({ state: 'output-available', output: 'Sunny, 21 degrees' });
    expect(done.last.metadata.usage.total.outputTokens).toBe(first.data.usage!.completion_tokens + second.data.usage!.completion_tokens);

    // Sent again, the outputs meet an answer that went on: 409, nothing written.
    const snapshot = await t.snapshot();
    const again = await client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } })
      .chat.completions.create({
        model: writer.id,
        messages: [
          { role: 'assistant', content: null, tool_calls: choice.message.tool_calls },
          { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 degrees' },
        ],
      })
      .catch((e) => e);
    expect(again).toBeInstanceOf(OpenAI.ConflictError);
    expect(await t.snapshot()).toBe(snapshot);
  });

  it('streams the call as delta.tool_calls and the continuation as text', async () => {
    const writer = await agentNamed('Writer');
    const { data: stream, response } = await client()
      .chat.completions.create({
        model: writer.id,
        messages: [{ role: 'user', content: ask }],
        tools: [weather],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    const { chunks } = await collect(stream);
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'lookup_weather' } });
    const id = deltas[0]!.id!;
    expect(id).toBeTruthy();
    const args = deltas.map((d) => d.function?.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ city: 'Oslo' });
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);

    // The client's own helper assembles the same call.
    const helper = client().chat.completions.stream({ model: writer.id, messages: [{ role: 'user', content: ask }], tools: [weather] });
    const final = await helper.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect((final.choices[0]!.message.tool_calls![0] as { function: { name: string } }).function.name).toBe('lookup_weather');

    const continued = await collect(
      await client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } }).chat.completions.create({
        model: writer.id,
        tools: [weather],
        stream: true,
        messages: [
          { role: 'user', content: ask },
          { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'lookup_weather', arguments: args } }] },
          { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: 'Rain, 9 degrees' }] },
        ],
      }),
    );
    expect(continued.text).toContain('Rain, 9 degrees');
    expect(continued.chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0]!.finish_reason).toBe('stop');
    expect(continued.chunks.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    const stored = await storedAnswer(chatId);
    expect(stored.body.messages).toHaveLength(2);
    expect(stored.text).toContain(continued.text);
  });

  it('without X-Baton-Chat-Id takes a resent history with tool messages as a new chat that goes on from the outputs', async () => {
    const writer = await agentNamed('Writer');
    const completion = await client()
      .chat.completions.create({
        model: writer.id,
        tools: [weather],
        messages: [
          { role: 'user', content: ask },
          {
            role: 'assistant',
            content: 'Calling lookup_weather.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_weather', arguments: '{"city":"Bergen"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'Windy' },
        ],
      })
      .withResponse();
    expect(completion.data.choices[0]!.finish_reason).toBe('stop');
    expect(completion.data.choices[0]!.message.content).toContain('Windy');
    const stored = await storedAnswer(completion.response.headers.get(BATON_CHAT_ID_HEADER)!);
    expect(stored.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(stored.last.parts.find((p: Part) => p.type === 'tool-lookup_weather')).toMatchObject({
      state: 'output-available',
      input: { city: 'Bergen' },
      output: 'Windy',
    });
    expect(stored.text.startsWith('Calling lookup_weather.')).toBe(true);
  });

  it('settles unanswered client calls when the chat goes on with a user message instead', async () => {
    const writer = await agentNamed('Writer');
    const first = await client()
      .chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: ask }], tools: [weather] })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const next = await client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } }).chat.completions.create({
      model: writer.id,
      messages: [{ role: 'user', content: 'Never mind the weather' }],
    });
    expect(next.choices[0]!.finish_reason).toBe('stop');
    const { body } = await json(await t.request(`${ws}/chats/${chatId}`)).then((b) => ({ body: b }));
    const call = body.messages[1].parts.find((p: Part) => p.type === 'tool-lookup_weather');
    expect(call).toMatchObject({ state: 'output-error' });
    expect(call.errorText).toMatch(/went on without/);
  });
});

describe('/v1 client tools: tool_choice', () => {
  it('passes "required" and a named client tool on to the model as OpenAI names them', async () => {
    const writer = await agentNamed('Writer');
    const before = t.demo.requests.length;
    const named = { type: 'function', function: { name: 'lookup_weather' } } as const;
    await client().chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: ask }], tools: [weather], tool_choice: named });
    await client().chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: ask }], tools: [weather], tool_choice: 'required' });
    const sent = sentSince(before) as unknown as { tool_choice?: unknown }[];
    expect(sent.map((r) => r.tool_choice)).toEqual([named, 'required']);
  });
});

describe('/v1 client tools: refusals write nothing', () => {
  it('refuses colliding names, invalid schemas, too many tools and bad tool messages with 400', async () => {
    const writer = await agentNamed('Writer');
    const assistant = await agentNamed('Assistant');
    const calc = await json(await t.request(`${ws}/agents`, { json: { name: 'Calculating', systemPrompt: 'Count.', toolIds: ['calculator'] } }));
    const fn = (name: string, parameters: unknown = { type: 'object', properties: {} }) => ({ type: 'function', function: { name, parameters } });
    const user = [{ role: 'user', content: ask }];
    const cases: [string, string, Record<string, unknown>][] = [
      ['tools[0].function.name', assistant.id, { tools: [fn('newTask')] }],
      ['tools[1].function.name', writer.id, { tools: [fn('ok'), fn('taskResult')] }],
      ['tools[0].function.name', calc.id, { tools: [fn('calculator')] }],
      ['tools[1].function.name', writer.id, { tools: [fn('twice'), fn('twice')] }],
      ['tools[0].function.name', writer.id, { tools: [fn('has space')] }],
      ['tools[0].function.parameters.type', writer.id, { tools: [fn('f', { type: 'string' })] }],
      ['tools[0].function.parameters.properties', writer.id, { tools: [fn('f', { type: 'object', properties: [1] })] }],
      ['tools[0].function.parameters.properties.a', writer.id, { tools: [fn('f', { type: 'object', properties: { a: 3 } })] }],
      ['tools[0].type', writer.id, { tools: [{ type: 'custom', custom: { name: 'f' } }] }],
      ['tools', writer.id, { tools: Array.from({ length: 129 }, (_, i) => fn(`t${i}`)) }],
      ['tool_choice', writer.id, { tools: [fn('f')], tool_choice: { type: 'function', function: { name: 'g' } } }],
      [
        'messages[1].tool_calls[0]',
        writer.id,
        { messages: [...user, { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, ...user] },
      ],
      [
        'messages[2].tool_call_id',
        writer.id,
        {
          messages: [
            ...user,
            { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'c2', content: 'x' },
          ],
        },
      ],
      ['messages[1].role', writer.id, { messages: [...user, { role: 'tool', tool_call_id: 'c1', content: 'x' }] }],
    ];
    const snapshot = await t.snapshot();
    const sent = t.demo.requests.length;
    for (const [param, model, extra] of cases) {
      const err = await client()
        .chat.completions.create({ model, messages: user, ...extra } as never)
        .catch((e) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.param, param).toBe(param);
    }
    expect(t.demo.requests.length).toBe(sent);
    expect(await t.snapshot()).toBe(snapshot);
  });

  it('refuses tool messages that answer no pending call of the chat, writing nothing', async () => {
    const writer = await agentNamed('Writer');
    const first = await client()
      .chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: ask }], tools: [weather] })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const id = first.data.choices[0]!.message.tool_calls![0]!.id;
    const continuing = client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } });
    const snapshot = await t.snapshot();
    const sent = t.demo.requests.length;
    const wrong = await continuing.chat.completions
      .create({ model: writer.id, messages: [{ role: 'tool', tool_call_id: 'call_other', content: 'x' }] })
      .catch((e) => e);
    expect(wrong).toBeInstanceOf(OpenAI.BadRequestError);
    expect(wrong.message).toContain(id);
    const twice = await continuing.chat.completions
      .create({
        model: writer.id,
        messages: [
          { role: 'tool', tool_call_id: id, content: 'x' },
          { role: 'tool', tool_call_id: id, content: 'y' },
        ],
      })
      .catch((e) => e);
    expect(twice).toBeInstanceOf(OpenAI.BadRequestError);
    const thenUser = await continuing.chat.completions
      .create({
        model: writer.id,
        messages: [
          { role: 'tool', tool_call_id: id, content: 'x' },
          { role: 'user', content: 'and then' },
        ],
      })
      .catch((e) => e);
    expect(thenUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect(t.demo.requests.length).toBe(sent);
    expect(await t.snapshot()).toBe(snapshot);
  });
});
