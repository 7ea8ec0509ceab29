import { startProviderSimulator, type ProviderSimulator } from '@baton/provider-sim';
import { RUN_ERROR_PART } from '@baton/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeChat, postStream, toolParts, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// The browser's chat stream as the AI SDK's own client uses it, unchanged: the stock
// DefaultChatTransport (the whole message list), the protocol's `error` chunk when the
// provider fails, and the design's `{ result, status, subChatId }` newTask output.
const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

let sim: ProviderSimulator;
const agents: Record<string, string> = {};
const createAgent = async (name: string, body: Record<string, unknown> = {}) => {
  agents[name] = (await json(await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } }))).id;
};

beforeAll(async () => {
  sim = await startProviderSimulator({
    delayMs: 1,
    models: { 'sim-refuses': { failWith: { status: 400, body: { error: { message: 'The model refuses.' } } } } },
  });
  const providerId = (await json(await t.request(`${ws}/providers`, { json: { name: 'Sim', baseUrl: sim.baseURL, apiKey: null, modelIds: ['sim-refuses'] } })))
    .id;
  await createAgent('Plain');
  await createAgent('Refused', { providerId, modelId: 'sim-refuses' });
  await createAgent('Helper');
  await createAgent('Lead', { subAgentIds: [agents.Helper] });
});
afterAll(() => sim?.close());

const stockChat = (agentId: string, body: Record<string, unknown> = {}) =>
  new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId, ...body }, transport: 'stock' });
const textOfMessage = (m: { parts: { type: string; text?: string }[] } | undefined) =>
  (m?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');

describe('a stock DefaultChatTransport', () => {
  it('chats: each request sends the whole list, the server takes the last one as new', async () => {
    const chat = stockChat(agents.Plain!);
    await chat.sendMessage({ text: 'First question' });
    await chat.settled();
    expect(chat.status).toBe('ready');
    await chat.sendMessage({ text: 'Second question' });
    await chat.settled();
    expect(chat.status).toBe('ready');
    expect(textOfMessage(chat.lastMessage)).toContain('Second question');
    const stored = await json(await t.request(`${ws}/chats/${chat.id}`));
    expect(stored.messages.map((m: { id: string }) => m.id)).toEqual(chat.messages.map((m) => m.id));
    // Regenerate (the list without the answer, and messageId) answers the last question again.
    const before = chat.lastMessage!.id;
    await chat.regenerate();
    await chat.settled();
    expect(chat.status).toBe('ready');
    expect(chat.lastMessage!.id).not.toBe(before);
    expect((await json(await t.request(`${ws}/chats/${chat.id}`))).messages).toHaveLength(4);
  });

  it('refuses a list whose earlier messages differ from what is stored, writing nothing', async () => {
    const chat = stockChat(agents.Plain!);
    await chat.sendMessage({ text: 'Stored question' });
    await chat.settled();
    const [user, answer] = chat.messages;
    const url = `${t.baseUrl}${ws}/chat`;
    const before = await t.snapshot();
    const cases = [
      // An earlier message left out, one that was never stored, and one rewritten.
      [answer, userMessage(uid('m'), 'next')],
      [userMessage(uid('m'), 'invented'), answer, userMessage(uid('m'), 'next')],
      [{ ...user, parts: [{ type: 'text', text: 'Rewritten question' }] }, answer, userMessage(uid('m'), 'next')],
    ];
    for (const messages of cases) {
      const res = await postStream(url, { id: chat.id, messages, trigger: 'submit-message' });
      expect(res.status, JSON.stringify(messages)).toBe(400);
    }
    // Both or neither of message and messages: 400 too.
    expect((await postStream(url, { id: chat.id, trigger: 'submit-message' })).status).toBe(400);
    expect((await postStream(url, { id: chat.id, message: userMessage(uid('m'), 'x'), messages: [userMessage(uid('m'), 'x')] })).status).toBe(400);
    expect(await t.snapshot()).toBe(before);
  });
});

describe('a provider error reaches a stock client as the protocol error chunk', () => {
  it('before the first token: the chat is in error with the reason, the stored part kept', async () => {
    const chat = stockChat(agents.Refused!);
    await chat.sendMessage({ text: 'Hello' });
    await chat.settled();
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toContain('The model refuses.');
    const stored = await json(await t.request(`${ws}/chats/${chat.id}`));
    const part = stored.messages.at(-1).parts.find((p: { type: string }) => p.type === RUN_ERROR_PART);
    expect(part.data.message).toContain('The model refuses.');
    // On the wire: the stored part, the finish, then the protocol's error chunk last.
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId: agents.Refused, message: userMessage(uid('m'), 'Hello') });
    const types = read.chunks.map((c) => c.type);
    expect(types.at(-1)).toBe('error');
    expect(types.indexOf(RUN_ERROR_PART)).toBeLessThan(types.length - 1);
    expect(read.chunks.at(-1)).toEqual({ type: 'error', errorText: part.data.message });
  });

  it('mid-answer: the words so far stay, and the chat is in error', async () => {
    const chat = stockChat(agents.Plain!);
    await chat.sendMessage({ text: 'Break off [demo:drop]' });
    await chat.settled();
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBeTruthy();
    expect(textOfMessage(chat.lastMessage).length).toBeGreaterThan(0);
    expect(chat.lastMessage!.parts.some((p) => p.type === RUN_ERROR_PART)).toBe(true);
  });

  it('a successful answer has no error chunk', async () => {
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId: agents.Plain, message: userMessage(uid('m'), 'Hello') });
    expect(read.chunks.some((c) => c.type === 'error')).toBe(false);
  });
});

describe("the design's newTask output", () => {
  it('{ result, status, subChatId } is accepted and completed by the server', async () => {
    const parent = stockChat(agents.Lead!);
    await parent.sendMessage({ text: '/delegate Helper: list two rivers' });
    await parent.settled();
    const [call] = toolParts(parent.lastMessage, 'newTask');
    expect(call!.state).toBe('input-available');
    const sub = new NodeChat({
      id: uid('sub'),
      baseUrl: t.baseUrl,
      body: { agentId: agents.Helper, parentChatId: parent.id, parentToolCallId: call!.toolCallId },
      transport: 'stock',
    });
    await sub.sendMessage({ text: call!.input.task });
    await sub.settled();
    const [taskResult] = toolParts(sub.lastMessage, 'taskResult');
    parent.addToolOutput({ tool: 'newTask', toolCallId: call!.toolCallId, output: { result: taskResult!.input.result, status: 'success', subChatId: sub.id } });
    await parent.settled();
    expect(parent.status).toBe('ready');
    expect(textOfMessage(parent.lastMessage)).toContain(taskResult!.input.result.split('\n')[0]);
    const stored = await json(await t.request(`${ws}/chats/${parent.id}`));
    const storedCall = stored.messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-newTask');
    // The server's own output: the outcome and usage it knows.
    expect(storedCall.output).toMatchObject({ status: 'success', subChatId: sub.id, outcome: 'success', truncated: false });
    expect(storedCall.output.usage.outputTokens).toBeGreaterThan(0);
  });
});
