import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { settleAndStoreRunEnd } from '../src/agent/runs/run-end';
import { chat, message, run } from '../src/db/schema';
import { storeRunSnapshots } from '../src/services/messages';
import { heartbeatRuns, type RunRow } from '../src/services/runs';
import { useTestApp } from './support/test-app';

// Under load the writes of running answers meet on the same rows from several connections:
// the heartbeat of all runs, the batched snapshots, the end of a run, a sub-agent's note.
// Each takes its rows in one order (runs by id, then chats, then messages), so none can
// wait for another in a cycle; Postgres would fail one with `deadlock detected`.
const t = useTestApp();
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

const shuffled = <T>(items: T[]) =>
  items
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);

const answer = (id: string, text: string): BatonUIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'text', text, state: 'streaming' }],
});

async function runningAnswers(count: number): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for (let i = 0; i < count; i++) {
    const chatId = uid('chat');
    await t.handle.db.insert(chat).values({ id: chatId, workspaceId: 'default' });
    await t.handle.db.insert(message).values({ id: uid('u'), chatId, role: 'user', parts: [{ type: 'text', text: 'hi' }], seq: 1 });
    const [row] = await t.handle.db
      .insert(run)
      .values({ id: uid('run'), chatId, workspaceId: 'default', kind: 'turn', mode: 'client', messageId: uid('msg'), owner: 'this-process', status: 'running' })
      .returning();
    rows.push(row!);
  }
  return rows;
}

const isDeadlock = (err: unknown) => {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '40P01') return true;
  }
  return false;
};

describe.runIf(process.env.DATABASE_URL)('concurrent writes of running answers (Postgres)', () => {
  it('heartbeats, batched snapshots and run ends never deadlock', async () => {
    const runs = await runningAnswers(60);
    const ending = new Set(runs.slice(0, 20).map((r) => r.id));
    const errors: unknown[] = [];
    const attempt = async (work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (err) {
        errors.push(err);
      }
    };

    const rounds = 25;
    const heartbeats = async () => {
      for (let i = 0; i < rounds; i++) await attempt(() => heartbeatRuns(t.handle.db, shuffled(runs.map((r) => r.id))));
    };
    // Two writers, as two replicas (or a writer and recovery) would be: each a batch in its own order.
    const snapshots = async () => {
      for (let i = 1; i <= rounds; i++) {
        await attempt(() =>
          storeRunSnapshots(
            t.handle.db,
            shuffled(runs).map((r) => ({
              runId: r.id,
              chatId: r.chatId,
              message: answer(r.messageId, `word `.repeat(i)),
              spent: { inputTokens: 10 * i, outputTokens: i, steps: 1 },
            })),
          ),
        );
      }
    };
    const ends = async () => {
      for (const r of shuffled(runs.filter((x) => ending.has(x.id)))) {
        await attempt(() =>
          settleAndStoreRunEnd(t.handle.db, r, {
            status: 'succeeded',
            message: answer(r.messageId, 'done'),
            usage: { inputTokens: 500, outputTokens: 50 },
            steps: 1,
          }),
        );
      }
    };

    await Promise.all([heartbeats(), heartbeats(), snapshots(), snapshots(), ends()]);

    const what = (err: unknown) => `${isDeadlock(err) ? 'deadlock' : 'error'}: ${String((err as Error).message).slice(0, 60)}`;
    expect(errors.map(what)).toEqual([]);
  }, 120_000);
});
