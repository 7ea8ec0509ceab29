import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createApiKey, invitedAccount } from './support/accounts';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// POST /v1/responses and GET /v1/responses/:id with the official OpenAI client over a real
// socket: the same agents, chats, usage and errors as Chat Completions, in the Responses shapes.
const t = useTestApp({ demoDelayMs: 1 });
const { client, agentNamed, storedAnswer } = useOpenAiClient(t);

type Sent = { messages: { role: string; content: unknown }[]; temperature?: number; top_p?: number; max_tokens?: number; max_completion_tokens?: number };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];

describe('POST /v1/responses (not streamed)', () => {
  it('answers a string input as a response object, with usage, as a chat of the key owner', async () => {
    const assistant = await agentNamed('Assistant');
    const { data: response, response: http } = await client().responses.create({ model: assistant.id, input: 'Hello over the Responses API' }).withResponse();
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: assistant.id, previous_response_id: null, error: null });
    expect(response.id).toMatch(/^resp_/);
    expect(response.created_at).toBeGreaterThan(1_600_000_000);
    expect(response.output).toHaveLength(1);
    const [item] = response.output as OpenAI.Responses.ResponseOutputMessage[];
    expect(item).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(item!.id).toMatch(/^msg_/);
    const [part] = item!.content as OpenAI.Responses.ResponseOutputText[];
    expect(part).toMatchObject({ type: 'output_text', annotations: [] });
    expect(part!.text).toContain('Hello over the Responses API');
    // openai-node's output_text is the message items' text.
    expect(response.output_text).toBe(part!.text);
    expect(response.usage!.input_tokens).toBeGreaterThan(0);
    expect(response.usage!.output_tokens).toBeGreaterThan(0);
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);

    const chatId = http.headers.get(BATON_CHAT_ID_HEADER)!;
    const stored = await storedAnswer(chatId);
    expect(stored.body).toMatchObject({ title: 'Hello over the Responses API', agentId: assistant.id, source: 'api' });
    expect(stored.text).toBe(part!.text);
  });

  it('takes message items with instructions as system text after the agent prompt, and passes the parameters on', async () => {
    const writer = await agentNamed('Writer');
    const before = t.demo.requests.length;
    const response = await client().responses.create({
      model: 'writer', // a name works too
      instructions: 'Answer like a pirate.',
      input: [
        { role: 'developer', content: 'Keep it short.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'First line' },
            { type: 'input_text', text: 'second line' },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.5,
      max_output_tokens: 500,
    });
    expect(response.status).toBe('completed');
    expect(response.model).toBe(writer.id);
    expect(response).toMatchObject({ instructions: 'Answer like a pirate.', temperature: 0.3, top_p: 0.5, max_output_tokens: 500 });
    const [request] = sentSince(before);
    expect(request!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const system = String(request!.messages[0]!.content);
    expect(system.endsWith('\n\nAnswer like a pirate.\n\nKeep it short.')).toBe(true);
    expect(system.indexOf('Answer like a pirate.')).toBeGreaterThan(10);
    expect(request!.messages[1]!.content).toBe('First line\nsecond line');
    expect(request).toMatchObject({ temperature: 0.3, top_p: 0.5 });
    expect(request!.max_tokens ?? request!.max_completion_tokens).toBe(500);
  });

  it('counts delegated tokens in usage', async () => {
    const { data: response, response: http } = await client()
      .responses.create({ model: 'assistant', input: '/delegate Researcher: facts about otters' })
      .withResponse();
    const chatId = http.headers.get(BATON_CHAT_ID_HEADER)!;
    const { data: subChats } = await json(await t.request(`/api/workspaces/default/chats/${chatId}/sub-chats`));
    expect(subChats).toHaveLength(1);
    const usage = response.usage as OpenAI.Responses.ResponseUsage & {
      baton: { own: { inputTokens: number }; delegated: { inputTokens: number; outputTokens: number } };
    };
    const { delegated } = usage.baton;
    expect(delegated.inputTokens).toBeGreaterThan(0);
    expect(delegated.inputTokens + delegated.outputTokens).toBe(subChats[0].inputTokens + subChats[0].outputTokens);
    expect(usage.input_tokens).toBe(usage.baton.own.inputTokens + delegated.inputTokens);
    expect(response.output_text).toContain(subChats[0].delegateResult.split('\n')[0]);
    const stored = await storedAnswer(chatId);
    expect(stored.last.metadata.usage.total).toEqual({ inputTokens: usage.input_tokens, outputTokens: usage.output_tokens });
  });

  it('refuses bad input with a 400 naming the parameter, writing nothing', async () => {
    const model = (await agentNamed('Assistant')).id;
    const before = await t.snapshot();
    const cases: [Record<string, unknown>, string][] = [
      [{ model, input: [] }, 'input'],
      [{ model, input: [{ role: 'robot', content: 'hi' }] }, 'input[0].role'],
      [{ model, input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }, 'input[0].content[0].type'],
      [{ model, input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }, 'input[0].content[0].image_url'],
      [{ model, input: [{ type: 'function_call_output', call_id: 'call_1' }] }, 'input[0].output'],
      [{ model, input: 'hi', background: true }, 'background'],
      [{ model, input: 'hi', top_k: 3 }, 'top_k'],
      [{ model, input: 'hi', include: ['reasoning.encrypted_content'] }, 'include[0]'],
      [{ model, input: 'hi', tools: [{ type: 'web_search' }] }, 'tools[0].type'],
      [{ model, input: 'hi', tool_choice: { type: 'function', name: 'nope' } }, 'tool_choice'],
      [{ model, input: [{ type: 'function_call_output', call_id: 'call_1', output: 'x' }] }, 'input[0]'],
    ];
    for (const [body, param] of cases) {
      const err = await client()
        .responses.create(body as never)
        .catch((e) => e);
      expect(err, JSON.stringify(body)).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.error, JSON.stringify(body)).toMatchObject({ type: 'invalid_request_error', param });
    }
    expect(await t.snapshot()).toBe(before);
  });
});

describe('GET /v1/responses/:id', () => {
  it("returns a stored response to its key's user only; another's is 404 in OpenAI's shape", async () => {
    const created = await client().responses.create({ model: 'assistant', input: 'Keep this response' });
    const retrieved = await client().responses.retrieve(created.id);
    expect(retrieved).toMatchObject({
      id: created.id,
      object: 'response',
      status: 'completed',
      model: created.model,
      output: created.output,
      usage: created.usage,
    });
    expect(retrieved.output_text).toBe(created.output_text);

    const member = await invitedAccount(t.anonymous, t.owner, 'responses-member@baton.test');
    const memberKey = (await createApiKey(t.anonymous, member)).key;
    const err = await client(memberKey)
      .responses.retrieve(created.id)
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
    const unknown = await client()
      .responses.retrieve('resp_run_nothing')
      .catch((e) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    // Nor can another user continue it.
    const cont = await client(memberKey)
      .responses.create({ model: 'assistant', input: 'Mine now', previous_response_id: created.id })
      .catch((e) => e);
    expect(cont).toBeInstanceOf(OpenAI.NotFoundError);
    expect(cont.error).toMatchObject({ param: 'previous_response_id' });
  });
});
