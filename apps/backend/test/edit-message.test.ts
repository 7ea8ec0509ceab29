import { describe, expect, it } from 'vitest';
import { NodeChat, postStream, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

const t = useTestApp({ demoDelayMs: 5 });
const ws = '/api/workspaces/default';
let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

async function newAgent() {
  return json(await t.request(`${ws}/agents`, { json: { name: `Editor ${uid('a')}` } }));
}

async function storedMessages(chatId: string) {
  const full = await json(await t.request(`${ws}/chats/${chatId}`));
  return full.messages as { id: string; role: string; parts: { type: string; text?: string }[]; createdAt: string }[];
}

const textsOf = (messages: { parts: { type: string; text?: string }[] }[]) =>
  messages.map((m) =>
    m.parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(''),
  );

describe('editing a user message', () => {
  it("the AI SDK's sendMessage with a messageId rewrites the message in place and answers it again", async () => {
    const agent = await newAgent();
    const chat = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agent.id } });
    await chat.sendMessage({ text: 'first question' });
    await chat.settled();
    await chat.sendMessage({ text: 'second question about walruses' });
    await chat.settled();
    const before = await storedMessages(chat.id);
    expect(before).toHaveLength(4);
    const lastUser = before[2]!;

    await chat.sendMessage({ text: 'second question about beavers', messageId: lastUser.id });
    await chat.settled();
    const after = await storedMessages(chat.id);
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // Same id and place, new text, the old text kept as an earlier version; a new answer to it; the first exchange untouched.
    expect(after[2]).toMatchObject({ id: lastUser.id, versions: { index: 2, count: 2 } });
    expect(textsOf(after)[2]).toBe('second question about beavers');
    expect(after[3]!.id).not.toBe(before[3]!.id);
    expect(textsOf(after)[3]).toContain('beavers');
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    // The model saw the edited text, never the old one.
    const seen = JSON.stringify(t.demo.requests.at(-1)!.messages);
    expect(seen).toContain('second question about beavers');
    expect(seen).not.toContain('walruses');
  });

  it('a title the first message gave follows its edit; a title the person chose stays', async () => {
    const agent = await newAgent();
    const derived = uid('chat');
    const first = userMessage(uid('u'), '# Walrus facts');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: derived, agentId: agent.id, message: first });
    expect((await json(await t.request(`${ws}/chats/${derived}`))).title).toBe('Walrus facts');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: derived, message: userMessage(first.id, 'Narwhal facts') });
    expect((await json(await t.request(`${ws}/chats/${derived}`))).title).toBe('Narwhal facts');

    const named = uid('chat');
    const own = userMessage(uid('u'), 'Walrus facts');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: named, agentId: agent.id, message: own });
    await t.request(`${ws}/chats/${named}`, { method: 'PATCH', json: { title: 'My zoo' } });
    await postStream(`${t.baseUrl}${ws}/chat`, { id: named, message: userMessage(own.id, 'Narwhal facts') });
    expect((await json(await t.request(`${ws}/chats/${named}`))).title).toBe('My zoo');
  });

  it('refuses to edit an assistant message, and writes nothing', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const first = userMessage(uid('u'), 'one');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: first });
    const answer = (await storedMessages(chatId))[1]!;
    const before = await t.snapshot();
    const res = await t.request(`${ws}/chat`, { json: { id: chatId, message: { ...userMessage(answer.id, 'one, edited'), role: 'user' } } });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toBe('message: only a user message of a top-level chat can be edited');
    expect(await t.snapshot()).toBe(before);
  });

  it('answers 409 while the chat is answering, and writes nothing', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const user = userMessage(uid('u'), Array.from({ length: 300 }, (_, i) => `word${i}`).join(' '));
    // Leaves after the first chunks; the answer goes on on the server.
    const started = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: user }, { stopAfterChunks: 3 });
    expect(started.status).toBe(200);
    expect(await t.isAnswering(chatId)).toBe(true);
    const res = await t.request(`${ws}/chat`, { json: { id: chatId, message: userMessage(user.id, 'shorter') } });
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('conflict');
    await waitFor('the answer to end', async () => ((await t.isAnswering(chatId)) ? undefined : true), 20_000);
    expect(textsOf(await storedMessages(chatId))[0]).toBe(user.parts[0]!.text);
  });

  it('validates the edited text like any message', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const user = userMessage(uid('u'), 'hello');
    const first = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: user });
    expect(textOf(first.chunks)).toContain('hello');
    for (const text of ['   ', 'nul\u0000byte']) {
      const res = await t.request(`${ws}/chat`, { json: { id: chatId, message: userMessage(user.id, text) } });
      expect(res.status, text).toBe(400);
    }
    expect(textsOf(await storedMessages(chatId))[0]).toBe('hello');
  });
});
