import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// /v1 with the official OpenAI client: which messages a call stores, its settings, and what it refuses.
const t = useTestApp({ demoDelayMs: 1 });
const { client, agentNamed, storedAnswer } = useOpenAiClient(t);

describe('POST /v1/chat/completions: messages, settings, refusals', () => {
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
      'system: Be brief.',
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
      ['system', 'Use short words.'],
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
});
