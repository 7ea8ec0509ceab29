import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedStarterAgents } from '../src/services/starter-agents';
import { json, useTestApp } from './support/test-app';

// The official OpenAI client, unchanged apart from baseURL and apiKey, against the real server.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
// The agents a fresh instance starts with (bootstrap seeds them; the test app does not).
beforeAll(async () => {
  await seedStarterAgents(t.handle.db);
});

const client = (apiKey = t.owner.apiKey, options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey, maxRetries: 0, ...options });

async function agentNamed(name: string): Promise<{ id: string; name: string; description: string }> {
  const { data } = await json(await t.request(`${ws}/agents?limit=100`));
  return data.find((a: { name: string }) => a.name === name);
}

async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const deltas = chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []));
  return { chunks, deltas, text: deltas.join('') };
}

async function storedAnswer(chatId: string) {
  const body = await json(await t.request(`${ws}/chats/${chatId}`));
  const last = body.messages.at(-1);
  return {
    body,
    last,
    text: last.parts
      .filter((p: { type: string }) => p.type === 'text')
      .map((p: { text: string }) => p.text)
      .join('\n\n'),
  };
}

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

  it('continues a chat with X-Baton-Chat-Id: only the new trailing user message is appended', async () => {
    const assistant = await agentNamed('Assistant');
    const first = await client()
      .chat.completions.create({
        model: assistant.id,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'First question' },
        ],
      })
      .withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const answer = first.data.choices[0]!.message.content!;

    const continuing = client(t.owner.apiKey, { defaultHeaders: { [BATON_CHAT_ID_HEADER]: chatId } });
    const second = await continuing.chat.completions
      .create({
        model: assistant.id,
        // The whole conversation, as OpenAI clients resend it: only what follows the last assistant message is new.
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'First question' },
          { role: 'assistant', content: answer },
          { role: 'user', content: 'Second question' },
        ],
      })
      .withResponse();
    expect(second.response.headers.get(BATON_CHAT_ID_HEADER)).toBe(chatId);
    expect(second.data.choices[0]!.message.content).toContain('Second question');
    const { body } = await storedAnswer(chatId);
    const texts = body.messages.map(
      (m: { role: string; parts: { type: string; text?: string }[] }) => `${m.role}: ${m.parts.find((p) => p.type === 'text')?.text?.split('\n')[0]}`,
    );
    expect(texts).toEqual([
      'user: System: Be brief.',
      'user: First question',
      expect.stringMatching(/^assistant: /),
      'user: Second question',
      expect.stringMatching(/^assistant: /),
    ]);
    expect(body.title).toBe('First question');

    // Unknown chat, and a chat of another workspace's key alike: not found.
    const err = await client(t.owner.apiKey)
      .chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'x' }] }, { headers: { [BATON_CHAT_ID_HEADER]: 'chat_nope' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.code).toBe('chat_not_found');
  });

  it('without X-Baton-Chat-Id stores the given messages as the whole history of a new chat', async () => {
    const writer = await agentNamed('Writer');
    const { response } = await client()
      .chat.completions.create({
        model: writer.id,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Earlier' },
              { type: 'text', text: 'question' },
            ],
          },
          { role: 'assistant', content: 'Earlier answer' },
          { role: 'developer', content: 'Use short words.' },
          { role: 'user', content: 'Now this' },
        ],
      })
      .withResponse();
    const { body } = await storedAnswer(response.headers.get(BATON_CHAT_ID_HEADER)!);
    const firstText = (m: { parts: { type: string; text?: string }[] }) => m.parts.find((p) => p.type === 'text')?.text;
    expect(body.messages.map((m: { role: string; parts: { type: string; text?: string }[] }) => [m.role, firstText(m)])).toEqual([
      ['user', 'Earlier\nquestion'],
      ['assistant', 'Earlier answer'],
      ['user', 'System: Use short words.'],
      ['user', 'Now this'],
      ['assistant', expect.stringContaining('Now this')],
    ]);
    expect(body.title).toBe('Earlier');
  });

  it('passes temperature and max_tokens to the agent model for this call only', async () => {
    const assistant = await agentNamed('Assistant');
    const before = t.demo.requests.length;
    await client().chat.completions.create({ model: assistant.id, messages: [{ role: 'user', content: 'Settings' }], temperature: 0.25, max_tokens: 333 });
    const sent = t.demo.requests.slice(before) as unknown as { temperature?: number; max_tokens?: number; max_completion_tokens?: number }[];
    expect(sent).toHaveLength(1);
    expect(sent[0]!.temperature).toBe(0.25);
    expect(sent[0]!.max_tokens ?? sent[0]!.max_completion_tokens).toBe(333);
  });

  it('refuses an unknown model with 404 model_not_found, writing nothing', async () => {
    const before = await t.snapshot();
    const err = await client()
      .chat.completions.create({ model: 'agent_nope', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.status).toBe(404);
    expect(err.code).toBe('model_not_found');
    expect(err.param).toBe('model');
    expect(await t.snapshot()).toBe(before);
  });

  it("keeps to the key's workspace: another workspace's agents and chats are not found", async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    const { data: otherAgents } = await json(await t.request(`/api/workspaces/${other.id}/agents`));
    const otherAssistant = otherAgents.find((a: { name: string }) => a.name === 'Assistant');
    const otherChat = await json(await t.request(`/api/workspaces/${other.id}/chats`, { json: { agentId: otherAssistant.id } }));
    const before = await t.snapshot();
    const model = await client()
      .chat.completions.create({ model: otherAssistant.id, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e);
    expect(model).toBeInstanceOf(OpenAI.NotFoundError);
    expect(model.code).toBe('model_not_found');
    const chat = await client()
      .chat.completions.create(
        { model: (await agentNamed('Assistant')).id, messages: [{ role: 'user', content: 'hi' }] },
        { headers: { [BATON_CHAT_ID_HEADER]: otherChat.id } },
      )
      .catch((e) => e);
    expect(chat).toBeInstanceOf(OpenAI.NotFoundError);
    expect(chat.code).toBe('chat_not_found');
    expect(await t.snapshot()).toBe(before);
    // The other workspace's own key reaches its agents (and only those).
    const otherKey = await json(await t.request(`/api/workspaces/${other.id}/api-keys`, { json: { name: 'other' } }));
    const { data: models } = await client(otherKey.key).models.list();
    expect(models.map((m) => m.id).sort()).toEqual(otherAgents.map((a: { id: string }) => a.id).sort());
  });

  it('refuses malformed bodies with 400 invalid_request_error', async () => {
    const assistant = await agentNamed('Assistant');
    const bad = [
      { model: assistant.id, messages: [] },
      { model: assistant.id, messages: [{ role: 'tool', content: 'x', tool_call_id: 'a' }] },
      { model: assistant.id, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x' } }] }] },
      {
        model: assistant.id,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      },
      { model: assistant.id, messages: [{ role: 'user', content: '   ' }] },
      { model: assistant.id, messages: [{ role: 'user', content: 'nul \u0000 byte' }] },
      { model: assistant.id, messages: [{ role: 'user', content: 'x' }], temperature: 7 },
      { messages: [{ role: 'user', content: 'x' }] },
    ];
    for (const body of bad) {
      const err = await client()
        .chat.completions.create(body as never)
        .catch((e) => e);
      expect(err, JSON.stringify(body)).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.type).toBe('invalid_request_error');
      expect(err.error.message).toBeTruthy();
    }
    const nul = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: assistant.id, messages: [{ role: 'user', content: 'nul \u0000 byte' }] }),
    });
    expect(nul.status).toBe(400);
    expect((await json(nul)).error).toMatchObject({ type: 'invalid_request_error', param: 'messages[0].content' });
    const notJson = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(notJson.status).toBe(400);
    expect((await json(notJson)).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
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

async function waitUntilIdle(chatId: string) {
  while (await t.isAnswering(chatId)) await new Promise((r) => setTimeout(r, 20));
}
