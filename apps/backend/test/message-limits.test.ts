import { MAX_MESSAGE_TEXT_CHARS } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();
const ws = '/api/workspaces/default';
let seq = 0;

async function newAgent() {
  return json(await t.request(`${ws}/agents`, { json: { name: `Reader ${seq++}` } }));
}

function streamBody(agentId: string, texts: string[]) {
  const n = seq++;
  return { id: `chat_limit_${n}`, agentId, message: { id: `m_limit_${n}`, role: 'user', parts: texts.map((text) => ({ type: 'text', text })) } };
}

async function expectTooLong(res: Response, field: string) {
  expect(res.status).toBe(400);
  const { error } = await json(res);
  expect(error.code).toBe('invalid_request');
  expect(error.message).toContain(`${field}:`);
  expect(error.message).toContain('100,000 characters');
}

describe(`one text limit for both chat endpoints (${MAX_MESSAGE_TEXT_CHARS} characters)`, () => {
  it('is 100,000', () => expect(MAX_MESSAGE_TEXT_CHARS).toBe(100_000));

  it('POST …/chat takes a user message whose text parts together are at the limit, and not one character more', async () => {
    const agent = await newAgent();
    const half = MAX_MESSAGE_TEXT_CHARS / 2;
    // Stored joined by a line break, which counts too.
    const atLimit = await t.request(`${ws}/chat`, { json: streamBody(agent.id, ['a'.repeat(half), 'b'.repeat(half - 1)]) });
    expect(atLimit.status).toBe(200);
    await atLimit.text();

    const before = await t.snapshot();
    await expectTooLong(await t.request(`${ws}/chat`, { json: streamBody(agent.id, ['a'.repeat(half), 'b'.repeat(half)]) }), 'message.parts');
    await expectTooLong(await t.request(`${ws}/chat`, { json: streamBody(agent.id, ['c'.repeat(900_000)]) }), 'message.parts');
    expect(await t.snapshot()).toBe(before);
  });

  it('POST …/chats/:id/messages takes text at the limit, and not one character more', async () => {
    const agent = await newAgent();
    const chat = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    const atLimit = await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'a'.repeat(MAX_MESSAGE_TEXT_CHARS) } });
    expect(atLimit.status, await atLimit.clone().text()).toBe(200);

    const before = await t.snapshot();
    await expectTooLong(await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'a'.repeat(MAX_MESSAGE_TEXT_CHARS + 1) } }), 'text');
    expect(await t.snapshot()).toBe(before);
  });
});
