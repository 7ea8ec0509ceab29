import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat, run } from '../src/db/schema';
import { createChat, deleteChat } from '../src/services/chat-repository';
import { recordTurnEnd } from '../src/services/sub-chat-state';
import { endRun } from '../src/agent/runs/run-lifecycle';
import { useTestApp } from './support/test-app';

const t = useTestApp();

// PGlite runs one statement at a time, so only real Postgres can interleave the two transactions.
describe.skipIf(!process.env.DATABASE_URL)('deleting a chat while its run ends (Postgres)', () => {
  it('waits for the run’s end to commit instead of deadlocking with it', async () => {
    const owner = { workspaceId: 'default', userId: t.owner.userId };
    const db = t.handle.db;
    for (let i = 0; i < 3; i++) {
      const created = await createChat(db, owner, { title: `Doomed ${i}` });
      const [started] = await db
        .insert(run)
        .values({
          id: `run_lock_${i}_${Date.now()}`,
          chatId: created.id,
          workspaceId: 'default',
          kind: 'turn',
          mode: 'server',
          messageId: `m_${i}`,
          owner: 'test',
        })
        .returning();
      let locked!: () => void;
      const runRowLocked = new Promise<void>((resolve) => (locked = resolve));
      // A run's end: its run row first, then its chat (as settleAndStoreRunEnd takes them).
      const ending = db.transaction(async (tx) => {
        expect(await endRun(tx, started!.id, { status: 'succeeded' })).toBeDefined();
        locked();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await recordTurnEnd(tx, created.id, { inputTokens: 1, outputTokens: 1 });
      });
      await runRowLocked;
      const deleting = deleteChat(db, owner, created.id);
      const [end, del] = await Promise.allSettled([ending, deleting]);
      expect(end.status, String((end as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(del.status, String((del as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(await db.select().from(chat).where(eq(chat.id, created.id))).toEqual([]);
      expect(await db.select().from(run).where(eq(run.chatId, created.id))).toEqual([]);
    }
  });
});
