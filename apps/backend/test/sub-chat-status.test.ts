import { readFile } from 'node:fs/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { insertSubChat } from './support/fixtures';
import { json, useTestApp } from './support/test-app';

// A sub-chat stores its outcome only; the status the API and the browser read is derived from it.

const t = useTestApp();
const chats = '/api/workspaces/default/chats';

async function parentChat() {
  const res = await t.request(chats, { json: { title: 'Parent' } });
  expect(res.status).toBe(201);
  return json(res);
}

describe("a sub-chat's status, derived from its outcome", () => {
  it('is running without an outcome, then success, cancelled or error as the outcome says; a top-level chat has none', async () => {
    const parent = await parentChat();
    const running = await insertSubChat(t.handle.db, parent, 'call_running', 'running');
    const expected: Record<string, string> = {
      success: 'success',
      cancelled: 'cancelled',
      error: 'error',
      step_limit: 'error',
      budget_exhausted: 'error',
      interrupted: 'error',
    };
    const ended: Record<string, string> = {};
    for (const outcome of Object.keys(expected)) {
      const row = await insertSubChat(t.handle.db, parent, `call_${outcome}`);
      await t.handle.db
        .update(chat)
        .set({ outcome: outcome as never })
        .where(eq(chat.id, row.id));
      ended[outcome] = row.id;
    }
    expect(await json(await t.request(`${chats}/${parent.id}`))).toMatchObject({ status: null, outcome: null });
    expect(await json(await t.request(`${chats}/${running.id}`))).toMatchObject({ status: 'running', outcome: null });
    const listed = (await json(await t.request(`${chats}/${parent.id}/sub-chats`))).data as { id: string; status: string; outcome: string }[];
    for (const [outcome, id] of Object.entries(ended)) {
      expect(listed.find((c) => c.id === id)).toMatchObject({ status: expected[outcome], outcome });
      expect(await json(await t.request(`${chats}/${id}`))).toMatchObject({ status: expected[outcome], outcome });
    }
  });
});

describe('the migration that drops chat.status', () => {
  it('gives an ended sub-chat that had a status but no outcome that outcome first, and leaves running ones running', async () => {
    const db = t.handle.db;
    const parent = await parentChat();
    const running = await insertSubChat(t.handle.db, parent, 'call_m_running', 'running');
    const ended = await insertSubChat(t.handle.db, parent, 'call_m_ended');
    const legacy = await insertSubChat(t.handle.db, parent, 'call_m_legacy', 'running');
    // The table as it was before the migration: a status beside the outcome.
    await db.execute(sql`ALTER TABLE "chat" ADD COLUMN "status" text`);
    await db.execute(sql`UPDATE "chat" SET "status" = 'running' WHERE "id" = ${running.id}`);
    await db.execute(sql`UPDATE "chat" SET "status" = 'success' WHERE "id" = ${ended.id}`);
    // Ended with a status only (no writer has done so since 0003, but the data must survive it).
    await db.execute(sql`UPDATE "chat" SET "status" = 'cancelled' WHERE "id" = ${legacy.id}`);

    const file = await readFile(new URL('../drizzle/0014_sub_chat_outcome_only.sql', import.meta.url), 'utf8');
    for (const statement of file.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const rows = await db
      .select({ id: chat.id, outcome: chat.outcome })
      .from(chat)
      .where(inArray(chat.id, [running.id, ended.id, legacy.id]));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.outcome]))).toEqual({ [running.id]: null, [ended.id]: 'success', [legacy.id]: 'cancelled' });
    expect(await json(await t.request(`${chats}/${legacy.id}`))).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
    expect(await json(await t.request(`${chats}/${running.id}`))).toMatchObject({ status: 'running', outcome: null });
  });
});
