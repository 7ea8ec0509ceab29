import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat, message } from '../src/db/schema';
import { migrationsFolder } from '../src/package-paths';
import { postStream, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// The branches migration turns every existing chat into a single branch: each message's
// parent is the one before it, in the order `seq` gave. Rows as they were before it (no
// parent) are written, its backfill statement — read from the committed SQL — is run, and
// the chat then reads, continues and branches like any other.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';

async function backfillStatement(): Promise<string> {
  const file = (await readdir(migrationsFolder)).find((f) => f.endsWith('_message_branches.sql'));
  const text = await readFile(join(migrationsFolder, file!), 'utf8');
  const statement = text.split('--> statement-breakpoint').find((s) => s.includes('UPDATE "message"'));
  return statement!.replace(/^\s*--.*$/gm, '').trim();
}

describe('migrating existing chats to branches', () => {
  it('makes each chat one branch, in its old order, that reads, continues and branches', async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Migrated' } }));
    const ids = { a: `chat_mig_a_${Date.now()}`, b: `chat_mig_b_${Date.now()}` };
    const userId = t.owner.userId;
    for (const id of Object.values(ids)) {
      await t.handle.db.insert(chat).values({ id, workspaceId: 'default', userId, agentId: agent.id, title: `Old ${id}` });
    }
    // Before the migration: rows ordered only by seq (inserted out of order, a gap left by a deleted answer, emoji and quotes).
    const old = [
      { id: `${ids.a}_3`, chatId: ids.a, role: 'user' as const, text: 'second 🐋 question', seq: 4 },
      { id: `${ids.a}_1`, chatId: ids.a, role: 'user' as const, text: "first 'question'", seq: 1 },
      { id: `${ids.a}_2`, chatId: ids.a, role: 'assistant' as const, text: 'first answer', seq: 2 },
      { id: `${ids.a}_4`, chatId: ids.a, role: 'assistant' as const, text: 'second answer', seq: 5 },
      { id: `${ids.b}_1`, chatId: ids.b, role: 'user' as const, text: 'another chat', seq: 1 },
    ];
    for (const m of old) {
      await t.handle.db
        .insert(message)
        .values({ id: m.id, chatId: m.chatId, role: m.role, parts: [{ type: 'text', text: m.text }], seq: m.seq, parentId: null });
    }
    await t.handle.db.execute(sql.raw(await backfillStatement()));

    const rows = await t.handle.db
      .select({ id: message.id, parentId: message.parentId, active: message.active, selected: message.selected })
      .from(message)
      .where(sql`${message.chatId} in (${ids.a}, ${ids.b})`);
    const parentOf = Object.fromEntries(rows.map((r) => [r.id, r.parentId]));
    expect(parentOf).toEqual({
      [`${ids.a}_1`]: null,
      [`${ids.a}_2`]: `${ids.a}_1`,
      [`${ids.a}_3`]: `${ids.a}_2`,
      [`${ids.a}_4`]: `${ids.a}_3`,
      [`${ids.b}_1`]: null,
    });
    expect(rows.every((r) => r.active && r.selected)).toBe(true);

    const read = await json(await t.request(`${ws}/chats/${ids.a}`));
    expect(read.messages.map((m: { id: string }) => m.id)).toEqual([`${ids.a}_1`, `${ids.a}_2`, `${ids.a}_3`, `${ids.a}_4`]);
    expect(read.messages.some((m: { versions?: unknown }) => m.versions)).toBe(false);

    // It continues after its last message, and an edit of its first message branches it.
    expect((await postStream(`${t.baseUrl}${ws}/chat`, { id: ids.a, message: userMessage(`${ids.a}_5`, 'third question') })).status).toBe(200);
    expect((await json(await t.request(`${ws}/chats/${ids.a}`))).messages).toHaveLength(6);
    expect((await postStream(`${t.baseUrl}${ws}/chat`, { id: ids.a, message: userMessage(`${ids.a}_1`, 'first, edited') })).status).toBe(200);
    const edited = await json(await t.request(`${ws}/chats/${ids.a}`));
    expect(edited.messages).toHaveLength(2);
    expect(edited.messages[0].versions).toMatchObject({ index: 2, count: 2 });
  });
});
