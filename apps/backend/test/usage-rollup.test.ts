import type { Chat, TokenUsage } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat, workspace } from '../src/db/schema';
import { newId } from '../src/ids';
import { addSubChat, at } from './support/delegation-tree';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

const zero: TokenUsage = { inputTokens: 0, outputTokens: 0 };
const own = (c: Pick<Chat, 'inputTokens' | 'outputTokens'>): TokenUsage => ({ inputTokens: c.inputTokens, outputTokens: c.outputTokens });
const add = (...all: TokenUsage[]): TokenUsage =>
  all.reduce((sum, u) => ({ inputTokens: sum.inputTokens + u.inputTokens, outputTokens: sum.outputTokens + u.outputTokens }), zero);

async function getChat(id: string) {
  const res = await t.request(`${ws}/chats/${id}`);
  expect(res.status).toBe(200);
  return json(res);
}

async function answeredChat(text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
  expect((await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } })).status).toBe(200);
  return getChat(c.id);
}

describe('usage on GET /chats/:id', () => {
  it('a chat that delegated nothing: its own tokens only', async () => {
    const c = await answeredChat('Just a question');
    expect(c.usage.own.inputTokens).toBeGreaterThan(0);
    expect(c.usage).toEqual({ own: own(c), delegated: zero, total: own(c) });
  });

  it('a REST delegation to two sub-agents: their tokens are delegated, the sub-chats delegated nothing', async () => {
    const c = await answeredChat('/delegate Researcher: facts about otters\n/delegate Writer: a poem');
    const subs: Chat[] = (await json(await t.request(`${ws}/chats/${c.id}/sub-chats`))).data;
    expect(subs).toHaveLength(2);
    for (const sub of subs) expect(sub.outputTokens).toBeGreaterThan(0);
    expect(c.usage).toEqual({ own: own(c), delegated: add(...subs.map(own)), total: add(own(c), ...subs.map(own)) });
    for (const sub of subs) expect((await getChat(sub.id)).usage).toEqual({ own: own(sub), delegated: zero, total: own(sub) });
  });

  it('sums the whole tree below a chat, at every depth, and nothing outside it', async () => {
    // The deeper levels are written with the services (see addSubChat), so every token is
    // known; nested delegation through the runtime is in delegation-rules-*.test.ts.
    const top = await answeredChat('Hello');
    const [topRow] = await t.handle.db.select().from(chat).where(eq(chat.id, top.id));
    const ended = (ms: number, inputTokens: number, outputTokens: number) => ({
      status: 'succeeded' as const,
      startedAt: at(ms),
      endedAt: at(ms + 100),
      steps: 1,
      inputTokens,
      outputTokens,
    });
    const a = await addSubChat(t.handle.db, topRow!, { agentId: agents.Researcher!.id, task: 'a', outcome: 'success', runs: [ended(0, 100, 10)] });
    const a1 = await addSubChat(t.handle.db, a, { agentId: agents.Writer!.id, task: 'a1', outcome: 'success', runs: [ended(10, 20, 2), ended(300, 30, 3)] });
    await addSubChat(t.handle.db, a1, { agentId: agents.Researcher!.id, task: 'a1a', outcome: 'error', runs: [ended(20, 4, 1)] });
    await addSubChat(t.handle.db, topRow!, { agentId: agents.Writer!.id, task: 'b', outcome: 'success', runs: [ended(30, 7, 7)] });
    // A sub-chat still at work counts what its ended runs recorded: nothing yet.
    await addSubChat(t.handle.db, a, {
      agentId: agents.Writer!.id,
      task: 'a2',
      runs: [{ status: 'running', startedAt: at(40), steps: 0, inputTokens: 0, outputTokens: 0 }],
    });
    // Linked below the tree but not this user's: another workspace's, nobody's.
    await t.handle.db.insert(workspace).values({ id: 'ws_other', name: 'Other' });
    await t.handle.db.insert(chat).values([
      { id: newId('chat'), workspaceId: 'ws_other', userId: topRow!.userId, parentChatId: a.id, depth: 2, inputTokens: 1000, outputTokens: 1000 },
      { id: newId('chat'), workspaceId: 'default', userId: null, parentChatId: a1.id, depth: 3, inputTokens: 1000, outputTokens: 1000 },
    ]);

    const belowA1 = { inputTokens: 4, outputTokens: 1 };
    const a1Own = { inputTokens: 50, outputTokens: 5 };
    const belowA = add(a1Own, belowA1);
    const aOwn = { inputTokens: 100, outputTokens: 10 };
    expect((await getChat(a1.id)).usage).toEqual({ own: a1Own, delegated: belowA1, total: add(a1Own, belowA1) });
    expect((await getChat(a.id)).usage).toEqual({ own: aOwn, delegated: belowA, total: add(aOwn, belowA) });
    const belowTop = add(aOwn, belowA, { inputTokens: 7, outputTokens: 7 });
    expect((await getChat(top.id)).usage).toEqual({ own: own(top), delegated: belowTop, total: add(own(top), belowTop) });
  });
});
