import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messageFeedback } from '../src/db/schema';
import { feedbackForChat } from '../src/services/feedback';
import { type Account, invitedAccount } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// Thumbs up/down on answers (issue 24 item 5): set, replace, clear; only answers; only in chats
// the caller can see; admins list them per agent.
const t = useTestApp();
const W = '/api/workspaces/default';

let bob: Account;
let agentId: string;
let otherAgentId: string;
/** The owner's chat: [user message, answer]. */
let chat: { id: string; userMessageId: string; answerId: string };
let bobsChat: { id: string; userMessageId: string; answerId: string };

const feedbackPath = (chatId: string, messageId: string) => `${W}/chats/${chatId}/messages/${messageId}/feedback`;
const rate = (chatId: string, messageId: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request(feedbackPath(chatId, messageId), { method: 'PUT', json: body, headers });
const unrate = (chatId: string, messageId: string, headers: Record<string, string> = {}) =>
  t.request(feedbackPath(chatId, messageId), { method: 'DELETE', headers });

async function chatWithAnswer(headers: Record<string, string>, title: string) {
  const created = await json(await t.request(`${W}/chats`, { json: { agentId, title }, headers }));
  const turn = await t.request(`${W}/chats/${created.id}/messages`, { json: { text: `Tell me about ${title}` }, headers });
  expect(turn.status, await turn.clone().text()).toBe(200);
  const [user, answer] = (await json(turn)).messages;
  expect([user.role, answer.role]).toEqual(['user', 'assistant']);
  return { id: created.id as string, userMessageId: user.id as string, answerId: answer.id as string };
}

async function messageFeedbackOf(chatId: string, messageId: string, headers: Record<string, string> = {}) {
  const read = await json(await t.request(`${W}/chats/${chatId}`, { headers }));
  return read.messages.find((m: { id: string }) => m.id === messageId).feedback;
}

async function expectRefused(res: Response, status: number, code: string, before: string) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  expect(await t.snapshot(), 'a refused request wrote something').toBe(before);
  return body.error;
}

beforeAll(async () => {
  bob = await invitedAccount(t.anonymous, t.owner, 'bob@baton.test');
  agentId = (await json(await t.request(`${W}/agents`, { json: { name: 'Rated' } }))).id;
  otherAgentId = (await json(await t.request(`${W}/agents`, { json: { name: 'Unrated' } }))).id;
  chat = await chatWithAnswer({}, 'otters');
  bobsChat = await chatWithAnswer({ cookie: bob.cookie }, 'beavers');
});

describe('feedback on an answer', () => {
  it('is set, returned on the message (the caller’s own), replaced, and cleared', async () => {
    expect(await messageFeedbackOf(chat.id, chat.answerId)).toBeNull();
    const up = await rate(chat.id, chat.answerId, { rating: 'up' });
    expect(up.status).toBe(200);
    expect(await json(up)).toMatchObject({ rating: 'up', comment: null });
    expect(await messageFeedbackOf(chat.id, chat.answerId)).toMatchObject({ rating: 'up', comment: null });
    expect(await messageFeedbackOf(chat.id, chat.userMessageId)).toBeNull();

    const down = await json(await rate(chat.id, chat.answerId, { rating: 'down', comment: '  Missed the point.  ' }));
    expect(down).toMatchObject({ rating: 'down', comment: 'Missed the point.' });
    expect(Date.parse(down.updatedAt)).toBeGreaterThanOrEqual(Date.parse(down.createdAt));
    expect(await messageFeedbackOf(chat.id, chat.answerId)).toMatchObject({ rating: 'down', comment: 'Missed the point.' });
    const rows = await t.handle.db.select().from(messageFeedback).where(eq(messageFeedback.messageId, chat.answerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ agentId, chatId: chat.id, workspaceId: 'default', userId: t.owner.userId });

    expect((await unrate(chat.id, chat.answerId)).status).toBe(204);
    expect(await messageFeedbackOf(chat.id, chat.answerId)).toBeNull();
    // Clearing what is not there is the same result.
    expect((await unrate(chat.id, chat.answerId)).status).toBe(204);
  });

  it('a blank comment is none; emoji are kept whole; NUL bytes and overlong comments are refused', async () => {
    expect(await json(await rate(chat.id, chat.answerId, { rating: 'up', comment: '   ' }))).toMatchObject({ comment: null });
    const emoji = 'Great 🦦🦫 answer — 👍🏽 ok 👨‍👩‍👧';
    expect(await json(await rate(chat.id, chat.answerId, { rating: 'up', comment: emoji }))).toMatchObject({ comment: emoji });
    expect((await messageFeedbackOf(chat.id, chat.answerId)).comment).toBe(emoji);
    // The limit counts characters (code points, as zod does), not UTF-16 units: 2,000 emoji fit, one more does not.
    const long = await rate(chat.id, chat.answerId, { rating: 'up', comment: '🦦'.repeat(2000) });
    expect(long.status).toBe(200);
    expect((await json(long)).comment).toBe('🦦'.repeat(2000));
    const before = await t.snapshot();
    const nul = await expectRefused(await rate(chat.id, chat.answerId, { rating: 'down', comment: 'bad\u0000byte' }), 400, 'invalid_request', before);
    expect(JSON.stringify(nul)).toContain('comment');
    await expectRefused(await rate(chat.id, chat.answerId, { rating: 'down', comment: `${'🦦'.repeat(2000)}!` }), 400, 'invalid_request', before);
    await expectRefused(await rate(chat.id, chat.answerId, { rating: 'meh' }), 400, 'invalid_request', before);
    await expectRefused(await rate(chat.id, chat.answerId, { rating: 'up', extra: 1 }), 400, 'invalid_request', before);
    await expectRefused(await rate(chat.id, chat.answerId, {}), 400, 'invalid_request', before);
    await expectRefused(await rate(`chat\u0000x`, chat.answerId, { rating: 'up' }), 400, 'invalid_request', before);
  });

  it('only answers can be rated: a user message is 400, and nothing is written', async () => {
    const before = await t.snapshot();
    const refused = await expectRefused(await rate(chat.id, chat.userMessageId, { rating: 'up' }), 400, 'invalid_request', before);
    expect(refused.message).toMatch(/only answers \(assistant messages\) can be rated/);
    await expectRefused(await unrate(chat.id, chat.userMessageId), 400, 'invalid_request', before);
  });

  it('chats and messages the caller cannot see are 404: another member’s, another workspace’s, another chat’s message', async () => {
    const before = await t.snapshot();
    // Bob rating the owner's answer, in the owner's chat.
    await expectRefused(await rate(chat.id, chat.answerId, { rating: 'up' }, { cookie: bob.cookie }), 404, 'not_found', before);
    await expectRefused(await unrate(chat.id, chat.answerId, { cookie: bob.cookie }), 404, 'not_found', before);
    // The owner naming Bob's answer under their own chat.
    await expectRefused(await rate(chat.id, bobsChat.answerId, { rating: 'up' }), 404, 'not_found', before);
    await expectRefused(await rate(chat.id, 'msg_unknown', { rating: 'up' }), 404, 'not_found', before);
    // Another workspace: the owner's chat under it, and a chat of it under this one.
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Other' } }));
    const before2 = await t.snapshot();
    const elsewhere = `/api/workspaces/${other.id}/chats/${chat.id}/messages/${chat.answerId}/feedback`;
    await expectRefused(await t.request(elsewhere, { method: 'PUT', json: { rating: 'up' } }), 404, 'not_found', before2);
    await expectRefused(await t.request(elsewhere, { method: 'PUT', json: { rating: 'up' }, headers: { cookie: bob.cookie } }), 404, 'not_found', before2);
    await expectRefused(await t.request(`/api/workspaces/${other.id}/agents/${agentId}/feedback`), 404, 'not_found', before2);
  });

  it('two ratings at once: both succeed, one rating stays', async () => {
    const results = await Promise.all([
      rate(chat.id, chat.answerId, { rating: 'up', comment: 'first' }),
      rate(chat.id, chat.answerId, { rating: 'down', comment: 'second' }),
      rate(chat.id, chat.answerId, { rating: 'up', comment: 'third' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const rows = await t.handle.db.select().from(messageFeedback).where(eq(messageFeedback.messageId, chat.answerId));
    expect(rows).toHaveLength(1);
  });
});

describe('feedback for admins, per agent, and for a chat’s export', () => {
  it('lists each rating with who, comment, chat and the rated answer; members are refused', async () => {
    await rate(chat.id, chat.answerId, { rating: 'down', comment: 'Too vague 🦦' });
    expect((await rate(bobsChat.id, bobsChat.answerId, { rating: 'up' }, { cookie: bob.cookie })).status).toBe(200);
    const page = await json(await t.request(`${W}/agents/${agentId}/feedback`));
    expect(page.totals).toEqual({ up: 1, down: 1 });
    expect(page.data).toHaveLength(2);
    // Newest first: Bob's.
    expect(page.data[0]).toMatchObject({ userId: bob.userId, userName: 'bob', rating: 'up', comment: null, chatId: bobsChat.id, messageId: bobsChat.answerId });
    expect(page.data[1]).toMatchObject({ userId: t.owner.userId, rating: 'down', comment: 'Too vague 🦦', chatId: chat.id, chatTitle: 'otters', agentId });
    // The demo model's reply, as plain text: its quote of the message without the markdown quote mark.
    expect(page.data[1].answerExcerpt).toMatch(/You wrote: Tell me about otters /);
    expect(page.data[1].answerExcerpt.length).toBeLessThanOrEqual(280);

    const downs = await json(await t.request(`${W}/agents/${agentId}/feedback?rating=down`));
    expect(downs.data.map((e: { rating: string }) => e.rating)).toEqual(['down']);
    expect(downs.totals).toEqual({ up: 1, down: 1 });
    const first = await json(await t.request(`${W}/agents/${agentId}/feedback?limit=1`));
    expect(first.data).toHaveLength(1);
    const second = await json(await t.request(`${W}/agents/${agentId}/feedback?limit=1&cursor=${first.nextCursor}`));
    expect(second.data[0].id).not.toBe(first.data[0].id);
    expect(second.nextCursor).toBeNull();

    expect(await json(await t.request(`${W}/agents/${otherAgentId}/feedback`))).toEqual({ data: [], nextCursor: null, totals: { up: 0, down: 0 } });
    expect((await t.request(`${W}/agents/agent_unknown/feedback`)).status).toBe(404);
    const member = await t.request(`${W}/agents/${agentId}/feedback`, { headers: { cookie: bob.cookie } });
    expect(member.status).toBe(403);
    expect((await t.request(`${W}/agents/${agentId}/feedback?rating=meh`)).status).toBe(400);
    expect((await t.request(`${W}/agents/${agentId}/feedback?cursor=nonsense`)).status).toBe(400);
  });

  it('feedbackForChat gives a chat’s ratings for its export', async () => {
    const entries = await feedbackForChat(t.handle.db, chat.id);
    expect(entries).toEqual([
      expect.objectContaining({ messageId: chat.answerId, rating: 'down', comment: 'Too vague 🦦', userId: t.owner.userId, chatTitle: 'otters' }),
    ]);
    expect(await feedbackForChat(t.handle.db, 'chat_unknown')).toEqual([]);
  });

  it('a deleted chat takes its ratings with it', async () => {
    expect((await t.request(`${W}/chats/${bobsChat.id}`, { method: 'DELETE', headers: { cookie: bob.cookie } })).status).toBe(204);
    expect((await json(await t.request(`${W}/agents/${agentId}/feedback`))).totals).toEqual({ up: 0, down: 1 });
  });
});

describe('the OpenAPI document', () => {
  it('describes feedback and who may edit an agent', async () => {
    const doc = await json(await t.request('/api/openapi.json'));
    const rate = doc.paths['/api/workspaces/{workspaceId}/chats/{chatId}/messages/{messageId}/feedback'];
    expect(Object.keys(rate).sort()).toEqual(['delete', 'put']);
    expect(JSON.stringify(rate.put.requestBody)).toContain('FeedbackInput');
    expect(doc.paths['/api/workspaces/{workspaceId}/agents/{agentId}/feedback'].get).toBeDefined();
    expect(doc.components.schemas.Message.properties.feedback).toBeDefined();
    expect(Object.keys(doc.components.schemas.Agent.properties)).toEqual(
      expect.arrayContaining(['authorId', 'authorName', 'editableBy', 'canEdit', 'canDelete', 'canShare']),
    );
    const remove = doc.paths['/api/workspaces/{workspaceId}/agents/{id}'].delete;
    expect(remove.responses).toHaveProperty('409');
    expect(remove.responses).toHaveProperty('403');
    expect(remove.parameters.map((p: { name: string }) => p.name)).toContain('force');
  });
});
