import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { collect, useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// /v1 with the official OpenAI client over a real socket: models, answers (streamed or not, delegated), failures.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const { client, agentNamed, storedAnswer, waitUntilIdle } = useOpenAiClient(t);

describe('GET /v1/models', () => {
  it('lists the workspace agents as models, each retrievable by id', async () => {
    const list = await client().models.list();
    const assistant = await agentNamed('Assistant');
    const models = list.data;
    expect(models.map((m) => m.owned_by).sort()).toEqual(expect.arrayContaining(['Assistant', 'Researcher', 'Writer']));
    const model = models.find((m) => m.id === assistant.id)!;
    expect(model).toMatchObject({ object: 'model', owned_by: 'Assistant', name: 'Assistant', description: assistant.description });
    expect(model.created).toBeGreaterThan(1_600_000_000);
    expect(await client().models.retrieve(assistant.id)).toMatchObject({ id: assistant.id, owned_by: 'Assistant' });
    await expect(client().models.retrieve('agent_missing')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses a missing or bad key with 401 in OpenAI error shape', async () => {
    const err = await client('baton_not-a-key')
      .models.list()
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.code).toBe('invalid_api_key');
    const res = await fetch(`${t.baseUrl}/v1/models`);
    expect(res.status).toBe(401);
    expect((await json(res)).error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key', param: null });
    // A session cookie is not a key: /v1 is for programs.
    expect((await t.fetch(`${t.baseUrl}/v1/models`)).status).toBe(401);
  });
});

describe('POST /v1/chat/completions', () => {
  it('answers without streaming, with usage, as a chat of the key owner', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: completion, response } = await client()
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'Hello over the OpenAI API' }] })
      .withResponse();
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(assistant.id);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.role).toBe('assistant');
    expect(choice.message.content).toContain('Hello over the OpenAI API');
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);

    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    expect(chatId).toBeTruthy();
    const stored = await storedAnswer(chatId);
    expect(stored.body).toMatchObject({ title: 'Hello over the OpenAI API', agentId: assistant.id });
    expect(stored.text).toBe(choice.message.content);
    expect(completion.id).toBe(`chatcmpl-${stored.last.id}`);
  });

  it('streams token by token: role first, many content deltas, finish reason, usage, [DONE]', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: stream, response } = await client()
      .chat.completions.create({
        model: assistant.id,
        messages: [{ role: 'user', content: 'Stream this answer please' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { chunks, deltas, text } = await collect(stream);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(deltas.length).toBeGreaterThan(5);
    expect(text).toContain('Stream this answer please');
    const finish = chunks.at(-2)!;
    expect(finish.choices[0]!.finish_reason).toBe('stop');
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage!.total_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const stored = await storedAnswer(response.headers.get(BATON_CHAT_ID_HEADER)!);
    expect(stored.text).toBe(text);
  });

  it('streams an answer that delegated: the final answer after the result, delegated tokens in usage, visible in the sidebar with its sub-chat', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: stream, response } = await client()
      .chat.completions.create({
        model: 'assistant', // a name works too (case-insensitive)
        messages: [{ role: 'user', content: '/delegate Researcher: facts about otters' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    const { chunks, text } = await collect(stream);
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;

    const { data: subChats } = await json(await t.request(`${ws}/chats/${chatId}/sub-chats`));
    expect(subChats).toHaveLength(1);
    expect(subChats[0]).toMatchObject({ status: 'success', agentId: (await agentNamed('Researcher')).id });
    // The answer goes on after the sub-agent's result, and that part is streamed too.
    const stored = await storedAnswer(chatId);
    const textParts = stored.last.parts.filter((p: { type: string }) => p.type === 'text');
    expect(textParts.length).toBeGreaterThan(1);
    expect(text).toBe(stored.text);
    expect(text).toContain(subChats[0].delegateResult.split('\n')[0]);
    expect(stored.last.parts.some((p: { type: string }) => p.type === 'tool-newTask')).toBe(true);

    const usage = chunks.at(-1)!.usage as OpenAI.CompletionUsage & {
      baton: { own: { inputTokens: number }; delegated: { inputTokens: number; outputTokens: number } };
    };
    const delegated = usage.baton.delegated;
    expect(delegated.inputTokens).toBeGreaterThan(0);
    expect(delegated.inputTokens + delegated.outputTokens).toBe(subChats[0].inputTokens + subChats[0].outputTokens);
    expect(usage.prompt_tokens).toBe(usage.baton.own.inputTokens + delegated.inputTokens);
    expect(stored.last.metadata.usage.total).toEqual({ inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens });

    const { data: sidebar } = await json(await t.request(`${ws}/chats`));
    expect(sidebar.map((c: { id: string }) => c.id)).toContain(chatId);
    expect(sidebar.find((c: { id: string }) => c.id === chatId)).toMatchObject({ agentId: assistant.id, title: 'Researcher: facts about otters' });
  });

  it('keeps emoji whole and turns a NUL byte the model writes into U+FFFD', async () => {
    const assistant = await agentNamed('Assistant');
    const content = 'Otters 🦦 and 👩‍👩‍👧 families [demo:garbage]';
    const plain = await client().chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content }] });
    expect(plain.choices[0]!.message.content).toContain('Otters 🦦 and 👩‍👩‍👧 families');
    expect(plain.choices[0]!.message.content).toContain('Garbage: \ufffd and \ufffd end.');
    const streamed = await collect(await client().chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content }], stream: true }));
    expect(streamed.text).toBe(plain.choices[0]!.message.content);
  });

  it('reports a failed answer as a server error the client does not retry, with the stored chat named', async () => {
    const assistant = await agentNamed('Assistant');
    const err = await client(t.owner.apiKey, { maxRetries: 2 })
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'Break off [demo:drop]' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err.type).toBe('server_error');
    const chatId = err.headers.get(BATON_CHAT_ID_HEADER);
    expect(chatId).toBeTruthy();
    // One attempt only: a retry would have started a second chat.
    const { data: sidebar } = await json(await t.request(`${ws}/chats?limit=100`));
    expect(sidebar.filter((c: { title: string }) => c.title === 'Break off [demo:drop]')).toHaveLength(1);

    const streamed = await client()
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'Break off too [demo:drop]' }], stream: true })
      .then(collect)
      .catch((e) => e);
    expect(streamed).toBeInstanceOf(OpenAI.APIError);
  });

  it('refuses a second call to a chat that is answering with 409', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: stream, response } = await client()
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'A long one [demo:stall]' }], stream: true })
      .withResponse();
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    const err = await client(t.owner.apiKey)
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'meanwhile' }] }, { headers: { [BATON_CHAT_ID_HEADER]: chatId } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.ConflictError);
    expect(err.code).toBe('chat_busy');
    await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' });
    await collect(stream).catch(() => {});
  });

  it('keeps answering and stores the answer when the client goes away mid-stream', async () => {
    const assistant = await agentNamed('Assistant');
    const controller = new AbortController();
    const { data: stream, response } = await client()
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'Leave early' }], stream: true }, { signal: controller.signal })
      .withResponse();
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break; // leaving the loop aborts the response
    }
    controller.abort();
    await waitUntilIdle(chatId);
    const stored = await storedAnswer(chatId);
    expect(stored.text).toContain('Leave early');
    expect(stored.last.metadata.finishReason).toBe('stop');
  });
});
