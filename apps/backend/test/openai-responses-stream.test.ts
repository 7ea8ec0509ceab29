import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useOpenAiClient } from './support/openai-client';
import { useTestApp } from './support/test-app';

// /v1/responses streamed (its event types, in order), previous_response_id continuing one chat,
// and a client function tool round trip, with the official OpenAI client over a real socket.
const t = useTestApp({ demoDelayMs: 1 });
const { client, agentNamed, storedAnswer } = useOpenAiClient(t);

type Event = OpenAI.Responses.ResponseStreamEvent;
type Sent = { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: { function: { name: string } }[] };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];

async function events(stream: AsyncIterable<Event>) {
  const all: Event[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

/** The event types with the deltas of a row folded into one, to check their order. */
const shape = (all: Event[]) => all.map((e) => e.type).filter((type, i, types) => !(type.endsWith('.delta') && types[i - 1] === type));

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'lookup_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

describe('POST /v1/responses with stream: true', () => {
  it('sends the Responses events in order, the text token by token, and the whole response with usage at the end', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: stream, response } = await client()
      .responses.create({ model: assistant.id, input: 'Stream this answer please', stream: true })
      .withResponse();
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = await events(stream);
    expect(shape(all)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    const deltas = all.filter((e): e is OpenAI.Responses.ResponseTextDeltaEvent => e.type === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(5);
    const text = deltas.map((d) => d.delta).join('');
    expect(text).toContain('Stream this answer please');
    const done = all.find((e): e is OpenAI.Responses.ResponseTextDoneEvent => e.type === 'response.output_text.done')!;
    expect(done.text).toBe(text);
    const created = all[0] as OpenAI.Responses.ResponseCreatedEvent;
    expect(created.response).toMatchObject({ object: 'response', status: 'in_progress', model: assistant.id, output: [] });
    const completed = (all.at(-1) as OpenAI.Responses.ResponseCompletedEvent).response;
    expect(completed).toMatchObject({ id: created.response.id, status: 'completed' });
    expect(completed.output).toEqual([
      {
        type: 'message',
        id: deltas[0]!.item_id,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
      },
    ]);
    expect(completed.usage!.output_tokens).toBeGreaterThan(0);
    expect(completed.usage!.total_tokens).toBe(completed.usage!.input_tokens + completed.usage!.output_tokens);
    const stored = await storedAnswer(response.headers.get(BATON_CHAT_ID_HEADER)!);
    expect(stored.text).toBe(text);
  });
});

describe('previous_response_id', () => {
  it('continues the chat the response belongs to, storing instructions once', async () => {
    const writer = await agentNamed('Writer');
    const first = await client().responses.create({ model: writer.id, instructions: 'Be brief.', input: 'First question' }).withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const before = t.demo.requests.length;
    const second = await client()
      .responses.create({ model: writer.id, instructions: 'Be brief.', input: 'Second question', previous_response_id: first.data.id })
      .withResponse();
    expect(second.response.headers.get(BATON_CHAT_ID_HEADER)).toBe(chatId);
    expect(second.data.previous_response_id).toBe(first.data.id);
    expect(second.data.id).not.toBe(first.data.id);
    // The model got the whole chat: the earlier turn, and the instructions once, after the agent's prompt.
    const [request] = sentSince(before);
    expect(request!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(String(request!.messages[0]!.content).endsWith('\n\nBe brief.')).toBe(true);
    expect(String(request!.messages[0]!.content).split('Be brief.')).toHaveLength(2);
    const { body } = await storedAnswer(chatId);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    // Retrieved, each is its own part of the chat, and the second names the first.
    const retrieved = await client().responses.retrieve(second.data.id);
    expect(retrieved).toMatchObject({ id: second.data.id, previous_response_id: first.data.id, output_text: second.data.output_text });
    expect((await client().responses.retrieve(first.data.id)).output_text).toBe(first.data.output_text);
  });
});

describe('client function tools', () => {
  it('streams a function_call, and its function_call_output with previous_response_id continues the same answer', async () => {
    const writer = await agentNamed('Writer');
    const before = t.demo.requests.length;
    const { data: stream, response } = await client()
      .responses.create({ model: writer.id, instructions: 'Use the tools.', input: '/tool lookup_weather {"city":"Oslo"}', tools: [weather], stream: true })
      .withResponse();
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    const all = await events(stream);
    expect(sentSince(before)[0]!.tools!.map((x) => x.function.name)).toContain('lookup_weather');
    const types = shape(all);
    const callAt = types.indexOf('response.function_call_arguments.delta');
    expect(types.slice(callAt - 1, callAt + 3)).toEqual([
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
    ]);
    expect(types.at(-1)).toBe('response.completed');
    const first = (all.at(-1) as OpenAI.Responses.ResponseCompletedEvent).response;
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'lookup_weather', status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Oslo' });
    const added = all.find((e) => e.type === 'response.output_item.added' && e.item.type === 'function_call') as OpenAI.Responses.ResponseOutputItemAddedEvent;
    expect(added.item).toMatchObject({ id: call.id, call_id: call.call_id });
    expect(await t.isAnswering(chatId)).toBe(false);

    // New instructions cannot go with tool outputs (they would be a message between the call and its output).
    const refused = await client()
      .responses.create({
        model: writer.id,
        previous_response_id: first.id,
        instructions: 'Something else.',
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'x' }],
      })
      .catch((e) => e);
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', param: 'instructions' });

    // As the Agents SDK sends it: the same instructions again, the output, the previous response.
    const next = t.demo.requests.length;
    const second = await client()
      .responses.create({
        model: writer.id,
        instructions: 'Use the tools.',
        previous_response_id: first.id,
        tools: [weather],
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21 degrees' }],
      })
      .withResponse();
    expect(second.response.headers.get(BATON_CHAT_ID_HEADER)).toBe(chatId);
    expect(second.data.status).toBe('completed');
    expect(second.data.output.map((o) => o.type)).toEqual(['message']);
    expect(second.data.output_text).toContain('Sunny, 21 degrees');
    expect(second.data.usage!.output_tokens).toBeGreaterThan(0);
    const [request] = sentSince(next);
    expect(request!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.call_id, content: 'Sunny, 21 degrees' });
    // One assistant message, continued: the call has its output, the answer follows it.
    const { body, last } = await storedAnswer(chatId);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(last.parts.find((p: { type: string }) => p.type === 'tool-lookup_weather')).toMatchObject({
      state: 'output-available',
      output: 'Sunny, 21 degrees',
    });
    // Each call is a response of its own; retrieved, the first still shows its call.
    expect(second.data.id).not.toBe(first.id);
    const again = await client().responses.retrieve(first.id);
    expect(again.output.find((o) => o.type === 'function_call')).toMatchObject({ call_id: call.call_id, name: 'lookup_weather' });
    expect((await client().responses.retrieve(second.data.id)).output_text).toBe(second.data.output_text);
  });
});
