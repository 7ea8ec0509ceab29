import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/db/schema';
import { postStream, runErrorOf, storedRunError, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// Failures are stored where the person sees them, on every path, and nothing stays locked.
const t = useTestApp({ demoDelayMs: 2, modelTimeouts: { firstByteMs: 600, idleMs: 600 } });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;
let agentId = '';

beforeAll(async () => {
  agentId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Fragile' } }))).id;
});

type Stored = { id: string; role: string; parts: { type: string; text?: string; data?: unknown }[] };
const stored = async (chatId: string): Promise<Stored[]> => (await json(await t.request(`${ws}/chats/${chatId}`))).messages;
const textOfMessage = (m: Stored | undefined) => (m?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text!] : [])).join('');

async function newChat() {
  return (await json(await t.request(`${ws}/chats`, { json: { agentId } }))).id as string;
}

async function runsOf(chatId: string) {
  return t.handle.db.select().from(run).where(eq(run.chatId, chatId));
}

describe('a provider error before the first token', () => {
  it('REST: the response carries the stored answer with the error, at the top level too', async () => {
    const chatId = await newChat();
    const res = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'break please [demo:error]' } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.error).toMatchObject({ code: 'provider_error', message: expect.stringMatching(/HTTP 500/) });
    expect(body.messages.map((m: Stored) => m.role)).toEqual(['user', 'assistant']);
    expect(storedRunError(body.messages[1])).toEqual(body.error);
    expect(body.run).toMatchObject({ status: 'failed', error: body.error.message });
    // Not wrapped twice, no validation dump.
    expect(body.error.message).not.toMatch(/The model provider returned an error.*The model provider returned an error/);
    expect(body.error.message).not.toMatch(/"issues"|ZodError|\[\{/);
    // The reason survives a reload, and the chat is usable again.
    expect(storedRunError((await stored(chatId))[1])).toEqual(body.error);
    expect((await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'again' } })).status).toBe(200);
  });
});

describe('provider time limits', () => {
  it('a provider that never starts answering ends the turn with a stored timeout', async () => {
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(uid('u'), 'hello [demo:silent]') });
    expect(runErrorOf(read.chunks)).toMatchObject({ code: 'timeout', message: expect.stringMatching(/did not start answering within 600 ms/) });
    const [, answer] = await stored(chatId);
    expect(storedRunError(answer)?.code).toBe('timeout');
    expect((await runsOf(chatId))[0]).toMatchObject({ status: 'failed' });
    // Not locked: the next message runs at once.
    const next = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: userMessage(uid('u'), 'are you there?') });
    expect(next.status).toBe(200);
  });

  it('a provider that stalls mid-answer keeps what arrived and stores the timeout', async () => {
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(uid('u'), 'hello [demo:stall]') });
    expect(runErrorOf(read.chunks)).toMatchObject({ code: 'timeout', message: expect.stringMatching(/stopped sending for 600 ms/) });
    const [, answer] = await stored(chatId);
    expect(textOfMessage(answer)).toBe(textOf(read.chunks));
    expect(textOfMessage(answer).length).toBeGreaterThan(0);
    expect(storedRunError(answer)?.code).toBe('timeout');
  });
});

describe('model output that Postgres cannot store as it is', () => {
  it('NUL bytes and lone surrogates are replaced (U+FFFD), streamed and stored alike', async () => {
    const chatId = uid('chat');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(uid('u'), 'say [demo:garbage]') });
    expect(read.status).toBe(200);
    expect(runErrorOf(read.chunks)).toBeUndefined();
    const streamed = textOf(read.chunks);
    expect(streamed).toContain('Garbage: \uFFFD and \uFFFD end.');
    const [, answer] = await stored(chatId);
    expect(textOfMessage(answer)).toBe(streamed);
    expect((await runsOf(chatId))[0]!.status).toBe('succeeded');
  });
});

describe('run rows', () => {
  it('record status, times, usage and the message written', async () => {
    const chatId = uid('chat');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(uid('u'), 'hi') });
    const [row] = await runsOf(chatId);
    const [, answer] = await stored(chatId);
    expect(row).toMatchObject({ status: 'succeeded', kind: 'turn', mode: 'client', messageId: answer!.id, basePartCount: 0, error: null });
    expect(row!.endedAt!.getTime()).toBeGreaterThanOrEqual(row!.startedAt.getTime());
    expect(row!.outputTokens).toBeGreaterThan(0);
  });
});
