import { createOpenAI } from '@ai-sdk/openai';
import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import { generateText, Output, streamText } from 'ai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, useOpenAiClient } from './support/openai-client';
import { useTestApp } from './support/test-app';

// /v1 as standard clients drive it: what reaches the provider for system messages and every
// Chat Completions parameter (the demo model records each request), structured output end
// to end, and the 409 that must not be retried.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const { client, agentNamed, storedAnswer, waitUntilIdle } = useOpenAiClient(t);

type Sent = Record<string, unknown> & { messages: { role: string; content: unknown }[] };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];

describe('/v1 system and developer messages', () => {
  it('reach the model as system instructions after the agent prompt, and again when the chat continues', async () => {
    const writer = await agentNamed('Writer');
    const before = t.demo.requests.length;
    const first = await client()
      .chat.completions.create({
        model: writer.id,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'First question' },
        ],
      })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const [request] = sentSince(before);
    expect(request!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const system = String(request!.messages[0]!.content);
    expect(system.endsWith('\n\nBe brief.')).toBe(true);
    // The agent's own prompt comes first.
    expect(system.indexOf('Be brief.')).toBeGreaterThan(10);
    expect(request!.messages[1]!.content).toBe('First question');
    expect(JSON.stringify(request!.messages)).not.toContain('System: ');

    const continuing = client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } });
    const next = t.demo.requests.length;
    await continuing.chat.completions.create({
      model: writer.id,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: first.data.choices[0]!.message.content! },
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'Second question' },
      ],
    });
    const [again] = sentSince(next);
    expect(again!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(String(again!.messages[0]!.content).endsWith('\n\nBe brief.\n\nAnswer in French.')).toBe(true);

    // Stored as the AI SDK's system messages, in their place.
    const { body } = await storedAnswer(chatId);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'system', 'user', 'assistant']);
    expect(body.messages[3].parts).toEqual([{ type: 'text', text: 'Answer in French.' }]);
  });
});

describe('/v1 parameters: passed on or refused', () => {
  it('passes every supported parameter on to the model', async () => {
    // The Assistant has tools (newTask), so tool_choice has something to apply to.
    const writer = await agentNamed('Assistant');
    const before = t.demo.requests.length;
    // Each as the provider gets it: OpenAI's own names and values (a parameter missing here would be dropped).
    const passedOn = {
      stop: ['END', 'STOP'],
      seed: 42,
      top_p: 0.5,
      frequency_penalty: 0.25,
      presence_penalty: -0.5,
      user: 'end-user-7',
      parallel_tool_calls: false,
      tool_choice: 'none',
      reasoning_effort: 'low',
      verbosity: 'low',
      logit_bias: { '50256': -100 },
      safety_identifier: 'hash-7',
      response_format: { type: 'json_object' },
    } as const;
    // Accepted and ignored: they change nothing an answer holds.
    const ignoredParams = {
      store: false,
      metadata: { run: '7' },
      service_tier: 'auto',
      prompt_cache_key: 'k',
      n: 1,
      logprobs: false,
      modalities: ['text'],
    } as const;
    await client().chat.completions.create({ model: writer.id, messages: [{ role: 'user', content: 'Settings' }], ...passedOn, ...ignoredParams } as never);
    const [sent] = sentSince(before);
    expect(sent).toMatchObject(passedOn);
    for (const ignored of Object.keys(ignoredParams)) expect(sent).not.toHaveProperty(ignored);
    // A single stop string is a list of one; parallel_tool_calls goes only with tools (OpenAI refuses it alone).
    const toolless = await agentNamed('Writer');
    const one = t.demo.requests.length;
    await client().chat.completions.create({
      model: toolless.id,
      messages: [{ role: 'user', content: 'x' }],
      stop: 'END',
      parallel_tool_calls: true,
      user: 'u',
    });
    expect(sentSince(one)[0]).toMatchObject({ stop: ['END'], user: 'u' });
    expect(sentSince(one)[0]).not.toHaveProperty('tools');
    expect(sentSince(one)[0]).not.toHaveProperty('parallel_tool_calls');
  });

  it('refuses what it cannot honour with a 400 naming the parameter, writing nothing', async () => {
    const writer = await agentNamed('Writer');
    const messages = [{ role: 'user', content: 'x' }];
    const refused: [string, Record<string, unknown>][] = [
      ['n', { n: 2 }],
      ['functions', { functions: [{ name: 'f', parameters: {} }] }],
      ['function_call', { function_call: 'auto' }],
      ['tools[0].type', { tools: [{ type: 'custom', custom: { name: 'f' } }] }],
      ['tool_choice', { tool_choice: { type: 'function', function: { name: 'f' } } }],
      ['tool_choice', { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }],
      ['logprobs', { logprobs: true }],
      ['top_logprobs', { top_logprobs: 3 }],
      ['audio', { audio: { voice: 'alloy', format: 'mp3' } }],
      ['modalities[1]', { modalities: ['text', 'audio'] }],
      ['prediction', { prediction: { type: 'content', content: 'x' } }],
      ['web_search_options', { web_search_options: {} }],
      ['response_format.type', { response_format: { type: 'xml' } }],
      ['response_format.json_schema', { response_format: { type: 'json_schema' } }],
      ['top_k', { top_k: 5 }],
    ];
    const before = await t.snapshot();
    const sent = t.demo.requests.length;
    for (const [param, extra] of refused) {
      const err = await client()
        .chat.completions.create({ model: writer.id, messages, ...extra } as never)
        .catch((e) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.param, JSON.stringify(extra)).toBe(param);
      expect(err.error.message).toContain(param);
    }
    expect(t.demo.requests.length).toBe(sent);
    expect(await t.snapshot()).toBe(before);
  });

  it('answers structured output that openai parse() reads, streamed and not', async () => {
    const writer = await agentNamed('Writer');
    const Otter = z.object({
      name: z.string(),
      legs: z.number().int(),
      aquatic: z.boolean(),
      habitat: z.enum(['river', 'sea']),
      facts: z.array(z.object({ text: z.string() })),
      nickname: z.string().nullable(),
    });
    const before = t.demo.requests.length;
    const parsed = await client().chat.completions.parse({
      model: writer.id,
      messages: [{ role: 'user', content: 'Describe an otter' }],
      response_format: zodResponseFormat(Otter, 'otter'),
    });
    const otter = parsed.choices[0]!.message.parsed!;
    expect(Otter.parse(otter)).toEqual(otter);
    const [sent] = sentSince(before);
    expect(sent!.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'otter', strict: true, schema: { type: 'object' } } });

    const stream = client().chat.completions.stream({
      model: writer.id,
      messages: [{ role: 'user', content: 'Another otter' }],
      response_format: zodResponseFormat(Otter, 'otter'),
    });
    const final = await stream.finalChatCompletion();
    expect(Otter.parse(final.choices[0]!.message.parsed)).toBeTruthy();

    // json_object: any JSON object.
    const plain = await client().chat.completions.create({
      model: writer.id,
      messages: [{ role: 'user', content: 'Reply in JSON' }],
      response_format: { type: 'json_object' },
    });
    expect(typeof JSON.parse(plain.choices[0]!.message.content!)).toBe('object');
  });

  it("answers the AI SDK's structured output (@ai-sdk/openai's chat model as the client)", async () => {
    const writer = await agentNamed('Writer');
    const baton = createOpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey: t.owner.apiKey });
    const schema = z.object({ title: z.string(), tags: z.array(z.string()), rating: z.number() });
    const { output } = await generateText({ model: baton.chat(writer.id), output: Output.object({ schema }), prompt: 'Name a river' });
    expect(schema.parse(output)).toEqual(output);
    const streamed = streamText({ model: baton.chat(writer.id), output: Output.object({ schema }), prompt: 'Name a lake' });
    expect(schema.parse(await streamed.output)).toBeTruthy();
  });
});

describe('/v1 CORS by default', () => {
  it('adds no CORS headers when BATON_CORS_ORIGINS lists no origin', async () => {
    const res = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('/v1 409 chat_busy', () => {
  it('carries x-should-retry: false, so openai-node sends it once', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: stream, response } = await client()
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'A long one [demo:stall]' }], stream: true })
      .withResponse();
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    // The client's default retries (and short waits, so a retry would show at once).
    const busy = client(t.owner.apiKey, { maxRetries: 3, fetch: counting, defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } });
    const err = await busy.chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'meanwhile' }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.ConflictError);
    expect(err.code).toBe('chat_busy');
    expect(err.headers.get('x-should-retry')).toBe('false');
    expect(calls).toBe(1);
    await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' });
    await collect(stream).catch(() => {});
    await waitUntilIdle(chatId);
  });
});
