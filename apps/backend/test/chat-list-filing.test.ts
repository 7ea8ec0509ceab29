import { type Chat, MAX_PINNED_CHATS } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

// The chat list as people organise it: pinned chats first (all on the first page), archived
// ones out of it and in their own list, and the same rules whoever asks at the same time.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';

async function newChat(title: string): Promise<Chat> {
  const res = await t.request(`${ws}/chats`, { json: { title } });
  expect(res.status).toBe(201);
  return json(res);
}
const patch = (id: string, body: unknown) => t.request(`${ws}/chats/${id}`, { method: 'PATCH', json: body });
async function titles(query = ''): Promise<{ titles: string[]; nextCursor: string | null; chats: Chat[] }> {
  const res = await t.request(`${ws}/chats?${query}`);
  expect(res.status).toBe(200);
  const page = await json(res);
  return { titles: page.data.map((c: Chat) => c.title), nextCursor: page.nextCursor, chats: page.data };
}

describe('pinning and archiving chats', () => {
  it('lists pinned chats first on the first page only, archived chats only in the archive, and pages through the rest', async () => {
    const [a, , c, d] = [await newChat('Alpha 📌'), await newChat('Bravo'), await newChat('Charlie'), await newChat('Delta')];
    const pinned = await json(await patch(a.id, { pinned: true }));
    expect(pinned).toMatchObject({ id: a.id, pinned: true, archived: false, title: 'Alpha 📌' });
    expect((await json(await patch(c.id, { archived: true }))).archived).toBe(true);

    const first = await titles('limit=1');
    expect(first.titles).toEqual(['Alpha 📌', 'Delta']);
    expect(first.chats[0]!.pinned).toBe(true);
    const second = await titles(`limit=1&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ titles: ['Bravo'], nextCursor: null });
    expect((await titles('limit=100&archived=true')).titles).toEqual(['Charlie']);

    // Archiving a pinned chat unpins it; pinning an archived one takes it out of the archive.
    const archivedPin = await json(await patch(a.id, { archived: true }));
    expect(archivedPin).toMatchObject({ pinned: false, archived: true });
    expect((await json(await patch(c.id, { pinned: true }))).archived).toBe(false);
    expect((await titles('limit=100&archived=true')).titles).toEqual(['Alpha 📌']);
    expect((await titles('limit=3')).titles.slice(0, 1)).toEqual(['Charlie']);
    // Still readable and renamable while archived.
    expect((await t.request(`${ws}/chats/${a.id}`)).status).toBe(200);
    expect((await json(await patch(a.id, { title: 'Alpha, filed' }))).title).toBe('Alpha, filed');
    // Pinning does not move a chat in time.
    expect((await json(await patch(d.id, { pinned: true }))).updatedAt).toBe(d.updatedAt);
  });

  it('refuses what makes no sense with a clear 400, and other people’s chats with 404', async () => {
    const chat = await newChat('Refusals');
    for (const body of [{}, { pinned: true, archived: true }, { pinned: 'yes' }, { archived: true, extra: 1 }, { title: '' }]) {
      const res = await patch(chat.id, body);
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    expect((await t.request(`${ws}/chats?archived=maybe`)).status).toBe(400);
    expect((await patch('chat_nope', { pinned: true })).status).toBe(404);
  });

  it(`caps pins at ${MAX_PINNED_CHATS}, also when many pin at once`, async () => {
    const chats = [];
    for (let i = 0; i < MAX_PINNED_CHATS + 5; i++) chats.push(await newChat(`Pin ${i}`));
    const existing = (await titles('limit=1')).chats.filter((c) => c.pinned).length;
    const results = await Promise.all(chats.map((c) => patch(c.id, { pinned: true })));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(MAX_PINNED_CHATS - existing);
    const refused = results.find((r) => r.status === 409)!;
    expect((await json(refused)).error.message).toMatch(/At most 50 chats can be pinned; unpin one first/);
    expect((await titles('limit=1')).chats.filter((c) => c.pinned)).toHaveLength(MAX_PINNED_CHATS);
  });
});
