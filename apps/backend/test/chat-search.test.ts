import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat, message } from '../src/db/schema';
import { invitedAccount } from './support/accounts';
import { insertSubChat } from './support/fixtures';
import { json, useTestApp } from './support/test-app';
import { storedParts } from './support/messages';

const t = useTestApp();
const chats = '/api/workspaces/default/chats';

let seq = 0;
async function chatWith(title: string, texts: string[], opts: { updatedAt?: Date } = {}) {
  const created = await json(await t.request(chats, { json: { title } }));
  await addMessages(created.id, texts);
  if (opts.updatedAt) await t.handle.db.update(chat).set({ updatedAt: opts.updatedAt }).where(eq(chat.id, created.id));
  return created as { id: string; workspaceId: string };
}

async function addMessages(chatId: string, texts: string[]) {
  if (texts.length === 0) return;
  await t.handle.db.insert(message).values(
    texts.map((text, i) => ({
      id: `msg_search_${++seq}`,
      chatId,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      // A tool part too: only text parts are searched.
      parts: storedParts([
        { type: 'text', text },
        { type: 'tool-calculator', toolCallId: `call_${seq}`, state: 'output-available', input: { expression: 'hidden words' } },
      ]),
      seq: i + 1,
    })),
  );
}

async function search(q: string, headers?: Record<string, string>) {
  const res = await t.request(`${chats}/search?q=${encodeURIComponent(q)}`, { headers });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res)).data as {
    chat: { id: string; title: string };
    match: { chatId: string; snippet: string; highlights: { start: number; end: number }[] } | null;
  }[];
}

const marked = (m: { snippet: string; highlights: { start: number; end: number }[] }) => m.highlights.map((h) => m.snippet.slice(h.start, h.end));

describe('chat search', () => {
  it('finds chats by message text, every word as a word start, with a snippet around the match', async () => {
    const zebra = await chatWith('Animals', [
      'Tell me about the migration of zebras across the Serengeti plains during the dry season, and why they travel so far every year.',
      'They follow the rain.',
    ]);
    await chatWith('Other', ['Nothing about that animal here.']);
    const hits = await search('Zebra migr');
    expect(hits.map((h) => h.chat.id)).toEqual([zebra.id]);
    const match = hits[0]!.match!;
    expect(match.chatId).toBe(zebra.id);
    expect(match.snippet).toContain('migration of zebras');
    expect(marked(match).map((w) => w.toLowerCase())).toEqual(expect.arrayContaining(['migration', 'zebras']));
    // All words must occur; tool inputs are not message text.
    expect(await search('zebra penguin')).toEqual([]);
    expect(await search('hidden')).toEqual([]);
  });

  it('finds chats by title (no snippet then), newest activity first', async () => {
    const older = await chatWith('Quarterly budget review', [], { updatedAt: new Date(Date.now() - 60_000) });
    const newer = await chatWith('Budget for the offsite', ['Where should we go?'], { updatedAt: new Date(Date.now() + 60_000) });
    const hits = await search('budget');
    expect(hits.map((h) => h.chat.id)).toEqual([newer.id, older.id]);
    expect(hits.every((h) => h.match === null)).toBe(true);
  });

  it('a match inside a sub-chat (any depth) finds its top-level chat, never the sub-chat itself', async () => {
    const top = await chatWith('Research plan', ['Please delegate this.']);
    const sub = await insertSubChat(t.handle.db, top, 'call_search_1');
    const subSub = await insertSubChat(t.handle.db, sub, 'call_search_2');
    await addMessages(subSub.id, ['The quokka is a small marsupial found on Rottnest Island.']);
    const hits = await search('quokka');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.chat.id).toBe(top.id);
    expect(hits[0]!.match).toMatchObject({ chatId: subSub.id });
    expect(marked(hits[0]!.match!)).toEqual(['quokka']);
    // A sub-chat's own title ("Sub") never makes it a result.
    expect((await search('sub')).map((h) => h.chat.id)).not.toContain(sub.id);
  });

  it("finds only the caller's own chats in the workspace", async () => {
    await chatWith('Private', ['The narwhal tusk is a tooth.']);
    const member = await invitedAccount(t.anonymous, t.owner, 'narwhal-member@baton.test');
    expect(await search('narwhal', { cookie: member.cookie })).toEqual([]);
    expect(await search('narwhal')).toHaveLength(1);
  });

  it('takes emoji, quotes and query syntax as plain text; refuses empty, huge and NUL queries', async () => {
    const party = await chatWith('Party 🎉 planning', ["Let's order the cake! It's ‘Müller’s’ bakery & co."]);
    expect((await search('🎉 party')).map((h) => h.chat.id)).toEqual([party.id]);
    expect((await search('müller')).map((h) => h.chat.id)).toEqual([party.id]);
    expect((await search("cake & !'bakery' | :*")).map((h) => h.chat.id)).toEqual([party.id]);
    expect(await search('🎉')).toEqual([]);
    for (const q of ['', '   ', 'x'.repeat(201), 'cake\u0000']) {
      const res = await t.request(`${chats}/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    expect((await t.request(`${chats}/search`)).status).toBe(400);
    expect((await t.request(`${chats}/search?q=cake&limit=0`)).status).toBe(400);
  });

  it('looks message text up through the GIN index', async () => {
    // With sequential scans priced out, a plan that can use the indexes must use them.
    const plan = await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(
        sql`explain select id from message m where jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(m.parts, '$[*] ? (@.type == "text").text'), '["string"]') @@ to_tsquery('simple', 'zebra:*')`,
      );
      return JSON.stringify((res as unknown as { rows: unknown[] }).rows);
    });
    expect(plan).toContain('message_text_search_idx');
  });
});
