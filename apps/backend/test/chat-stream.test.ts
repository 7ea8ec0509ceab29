import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat, message } from '../src/db/schema';
import { postStream, runErrorOf, storedRunError, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

const t = useTestApp({ demoDelayMs: 5 });
const ws = '/api/workspaces/default';
let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

async function newAgent(body: Record<string, unknown> = {}) {
  return json(await t.request(`${ws}/agents`, { json: { name: `Agent ${uid('a')}`, ...body } }));
}

async function storedMessages(chatId: string) {
  const full = await json(await t.request(`${ws}/chats/${chatId}`));
  return full.messages as { id: string; role: string; parts: any[]; metadata: any }[];
}

describe('POST /chat streaming', () => {
  it('titles a new chat from its first message as plain text, a /delegate command by its task', async () => {
    const agent = await newAgent();
    const headed = uid('chat');
    const first = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: headed,
      agentId: agent.id,
      message: userMessage(uid('u'), '# **Otters** in `rivers`\nwhy?'),
    });
    expect(first.status).toBe(200);
    expect((await json(await t.request(`${ws}/chats/${headed}`))).title).toBe('Otters in rivers');
    const command = uid('chat');
    const second = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: command,
      agentId: agent.id,
      message: userMessage(uid('u'), '/delegate Researcher: find three facts'),
    });
    expect(second.status).toBe(200);
    expect((await json(await t.request(`${ws}/chats/${command}`))).title).toBe('Researcher: find three facts');
  });

  it('streams a plain answer incrementally and stores both messages with metadata', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'Tell me about otters') });
    expect(read.status).toBe(200);
    const deltas = read.chunks.filter((c) => c.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(10);
    // Token by token: many separate network reads, spread over time, before the end.
    expect(read.reads.length).toBeGreaterThan(5);
    expect(read.reads.at(-1)! - read.reads[0]!).toBeGreaterThan(20);
    expect(textOf(read.chunks)).toContain('Tell me about otters');

    const messages = await storedMessages(chatId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.parts.find((p) => p.type === 'text').text).toBe(textOf(read.chunks));
    expect(messages[1]!.metadata).toMatchObject({ modelId: 'baton-demo', agentId: agent.id, finishReason: 'stop' });
    // Without delegation the whole usage is the message's own.
    const usage = messages[1]!.metadata.usage;
    expect(usage.own.outputTokens).toBeGreaterThan(0);
    expect(usage.delegated).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(usage.total).toEqual(usage.own);
    const row = await json(await t.request(`${ws}/chats/${chatId}`));
    expect(row.title).toBe('Tell me about otters');
    expect(row.outputTokens).toBe(messages[1]!.metadata.usage.own.outputTokens);
    // The model saw the agent's history from the database, not from the client.
    const second = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: userMessage(uid('u'), 'And beavers?') });
    expect(second.status).toBe(200);
    const lastRequest = t.demo.requests.at(-1)!;
    expect(lastRequest.messages.filter((m) => m.role === 'user')).toHaveLength(2);
    expect((await storedMessages(chatId)).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('answers with the agent’s system prompt and tools', async () => {
    const agent = await newAgent({ systemPrompt: 'You are terse.', toolIds: ['calculator', 'currentTime'] });
    await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId: agent.id, message: userMessage(uid('u'), 'hi') });
    const req = t.demo.requests.at(-1)!;
    expect(req.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('You are terse.') });
    expect((req.tools ?? []).map((x) => x.function.name).sort()).toEqual(['calculator', 'currentTime']);
  });

  it('regenerates the last answer, replacing it', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const u = userMessage(uid('u'), 'first question');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: u });
    const before = await storedMessages(chatId);
    const again = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: u, trigger: 'regenerate-message' });
    expect(again.status).toBe(200);
    const after = await storedMessages(chatId);
    expect(after).toHaveLength(2);
    expect(after[1]!.id).not.toBe(before[1]!.id);
  });

  it('turns a provider HTTP error into a readable error part and keeps the chat usable', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'please [demo:error]') });
    expect(read.status).toBe(200);
    expect(runErrorOf(read.chunks)).toMatchObject({ code: 'provider_error', message: expect.stringMatching(/model provider returned an error \(HTTP 500\)/) });
    // Failed before its first token, and still stored where the person sees it after a reload.
    const failed = await storedMessages(chatId);
    expect(failed.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(storedRunError(failed[1])).toEqual(runErrorOf(read.chunks));
    const next = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: userMessage(uid('u'), 'hello again') });
    expect(next.chunks.some((c) => c.type === 'text-delta')).toBe(true);
    expect((await storedMessages(chatId)).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('stores what arrived before the provider dropped the connection mid-stream', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'go on [demo:drop]') });
    expect(runErrorOf(read.chunks)?.message).toMatch(/connection to the model provider was lost/i);
    const streamed = textOf(read.chunks);
    expect(streamed.length).toBeGreaterThan(0);
    const messages = await storedMessages(chatId);
    expect(messages[1]!.parts.find((p) => p.type === 'text').text).toBe(streamed);
    expect(storedRunError(messages[1])?.message).toMatch(/lost/);
    await waitFor('the condition', async () => ((await t.isAnswering(chatId)) ? undefined : true));
    const next = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: userMessage(uid('u'), 'try again') });
    expect(next.chunks.some((c) => c.type === 'finish')).toBe(true);
  });

  it('keeps generating and stores the whole answer when the client disconnects', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const controller = new AbortController();
    const read = await postStream(
      `${t.baseUrl}${ws}/chat`,
      { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'a long answer please') },
      { stopAfterChunks: 6, signal: controller.signal },
    );
    controller.abort();
    const received = textOf(read.chunks);
    const stored = await waitFor('the condition', async () => {
      const messages = await storedMessages(chatId);
      const assistant = messages.find((m) => m.role === 'assistant');
      return assistant?.metadata?.finishReason === 'stop' ? assistant : undefined;
    });
    const text = stored.parts.find((p) => p.type === 'text').text as string;
    expect(text.startsWith(received)).toBe(true);
    expect(text.length).toBeGreaterThan(received.length + 50);
    expect(text).toContain('a long answer please');
  });

  it('Stop aborts the running turn on the server and stores the partial answer', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const reading = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'x '.repeat(400)) });
    await waitFor('the condition', async () => ((await t.isAnswering(chatId)) ? true : undefined));
    await new Promise((r) => setTimeout(r, 60));
    expect((await json(await t.request(`${ws}/chats/${chatId}`))).answering).toBe(true);
    const stop = await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' });
    expect(await json(stop)).toEqual({ stopped: true });
    const read = await reading;
    const messages = await storedMessages(chatId);
    const assistant = messages.find((m) => m.role === 'assistant')!;
    expect(assistant.metadata.stopped).toBe(true);
    expect((await json(await t.request(`${ws}/chats/${chatId}`))).answering).toBe(false);
    const text = assistant.parts.find((p) => p.type === 'text')?.text ?? '';
    expect(text.length).toBeLessThan(800);
    expect(textOf(read.chunks).startsWith(text.slice(0, 20))).toBe(true);
    expect(await json(await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' }))).toEqual({ stopped: false });
  });
});

describe('POST /chat validation', () => {
  it('rejects bad requests without writing', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const u = userMessage(uid('u'), 'hello');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: u });
    const [, assistant] = await storedMessages(chatId);
    // (Sending this chat's last user message again with new text is an edit: see edit-message.test.ts.)
    const elsewhere = userMessage(uid('u'), 'elsewhere');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId: agent.id, message: elsewhere });
    const cases: [string, unknown, RegExp][] = [
      ['new chat without agent', { id: uid('chat'), message: userMessage(uid('u'), 'x') }, /agentId/],
      ['unknown agent', { id: uid('chat'), agentId: 'agent_nope', message: userMessage(uid('u'), 'x') }, /agent_nope/],
      [
        'new chat starting with assistant',
        { id: uid('chat'), agentId: agent.id, message: { id: uid('m'), role: 'assistant', parts: [{ type: 'text', text: 'x' }] } },
        /user message/,
      ],
      ['reused user message id of another chat (rewriting history)', { id: chatId, message: elsewhere }, /already exists/],
      ['new chat reusing a stored message id', { id: uid('chat'), agentId: agent.id, message: u }, /already exists/],
      ['empty text', { id: chatId, message: userMessage(uid('u'), '   ') }, /empty/],
      [
        'non-text user part',
        {
          id: chatId,
          message: { id: uid('u'), role: 'user', parts: [{ type: 'tool-calculator', toolCallId: 'c', state: 'output-available', input: {}, output: 1 }] },
        },
        /text and file parts/,
      ],
      [
        'edited assistant text',
        { id: chatId, message: { ...assistant, parts: assistant!.parts.map((p: any) => (p.type === 'text' ? { ...p, text: 'forged' } : p)) } },
        /only tool outputs|no new tool outputs/,
      ],
      [
        'unknown assistant id',
        { id: chatId, message: { id: 'msg_unknown', role: 'assistant', parts: [{ type: 'text', text: 'x' }] } },
        /last assistant message/,
      ],
      [
        'regenerate a message that is not a user message of the chat',
        { id: chatId, message: userMessage(uid('u'), 'x'), trigger: 'regenerate-message' },
        /only a user message of a top-level chat/,
      ],
    ];
    for (const [name, body, message] of cases) {
      const before = await t.snapshot();
      const res = await t.request(`${ws}/chat`, { json: body });
      expect(res.status, name).toBe(400);
      expect((await json(res)).error.message, name).toMatch(message);
      expect(await t.snapshot(), name).toBe(before);
    }
    const malformed = await t.request(`${ws}/chat`, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    expect((await json(malformed)).error.code).toBe('invalid_json');
  });

  it('refuses a second turn while one is running (409)', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const reading = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'y '.repeat(200)) });
    await waitFor('the condition', async () => ((await t.isAnswering(chatId)) ? true : undefined));
    const res = await t.request(`${ws}/chat`, { json: { id: chatId, message: userMessage(uid('u'), 'again') } });
    expect(res.status).toBe(409);
    await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' });
    await reading;
  });

  it('keeps chat rows scoped to their workspace', async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    const agent = await newAgent();
    const chatId = uid('chat');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'hi') });
    // Another workspace cannot touch this chat: its agent is unknown there, and nothing is written.
    const res = await t.request(`/api/workspaces/${other.id}/chat`, { json: { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'x') } });
    expect(res.status).toBe(400); // the agent belongs to another workspace
    const rows = await t.handle.db.select().from(chat).where(eq(chat.id, chatId));
    expect(rows[0]!.workspaceId).toBe('default');
    expect((await t.handle.db.select().from(message).where(eq(message.chatId, chatId))).length).toBe(2);
  });
});

describe('progress is stored while an answer streams', () => {
  it('a reader of the chat sees the partial answer before the turn ends', async () => {
    const agent = await newAgent();
    const chatId = uid('chat');
    const reading = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'z '.repeat(600)) });
    const partial = await waitFor('the condition', async () => {
      const chat = await json(await t.request(`${ws}/chats/${chatId}`));
      const text = chat.messages?.find((m: { role: string }) => m.role === 'assistant')?.parts.find((p: { type: string }) => p.type === 'text')?.text;
      return chat.answering && text ? text : undefined;
    });
    const read = await reading;
    expect(textOf(read.chunks).startsWith(partial)).toBe(true);
    expect(textOf(read.chunks).length).toBeGreaterThan(partial.length);
  });
});
