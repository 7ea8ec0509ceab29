import { asc, eq, inArray } from 'drizzle-orm';
import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { chat, message, run } from '../src/db/schema';
import { storeRunSnapshots } from '../src/services/messages';
import { useTestApp } from './support/test-app';

// Mid-answer snapshots of many runs are written together (one statement); each must still
// behave like the single write it replaces: only while its run is running, in its place.
const t = useTestApp();
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

async function chatWithRun(status: 'running' | 'succeeded' | 'interrupted', existingAnswer?: BatonUIMessage) {
  const chatId = uid('chat');
  const messageId = existingAnswer?.id ?? uid('msg');
  await t.handle.db.insert(chat).values({ id: chatId, workspaceId: 'default' });
  await t.handle.db.insert(message).values({ id: uid('u'), chatId, role: 'user', parts: [{ type: 'text', text: 'hi' }], seq: 1 });
  if (existingAnswer) {
    await t.handle.db.insert(message).values({ id: messageId, chatId, role: 'assistant', parts: existingAnswer.parts, seq: 2 });
  }
  const runId = uid('run');
  await t.handle.db.insert(run).values({ id: runId, chatId, workspaceId: 'default', kind: 'turn', mode: 'client', messageId, owner: 'this-process', status });
  return { chatId, runId, messageId };
}

const answer = (id: string, text: string, metadata?: Record<string, unknown>): BatonUIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'text', text, state: 'streaming' }],
  ...(metadata ? { metadata } : {}),
});

async function messagesOf(chatId: string) {
  return t.handle.db.select().from(message).where(eq(message.chatId, chatId)).orderBy(asc(message.seq));
}

describe('storeRunSnapshots', () => {
  it('writes the answers of running runs in one go, and nothing for runs that ended', async () => {
    const fresh = await chatWithRun('running');
    const growing = await chatWithRun('running', answer('placeholder', 'Otters'));
    const ended = await chatWithRun('succeeded');
    const recovered = await chatWithRun('interrupted', answer('placeholder2', 'Kept by recovery'));

    const written = await storeRunSnapshots(t.handle.db, [
      { runId: fresh.runId, chatId: fresh.chatId, message: answer(fresh.messageId, 'First words', { modelId: 'baton-demo' }) },
      { runId: growing.runId, chatId: growing.chatId, message: answer(growing.messageId, 'Otters hold hands') },
      { runId: ended.runId, chatId: ended.chatId, message: answer(ended.messageId, 'too late') },
      { runId: recovered.runId, chatId: recovered.chatId, message: answer(recovered.messageId, 'would overwrite the repair') },
    ]);
    expect(written).toBe(2);

    const [, first] = await messagesOf(fresh.chatId);
    expect(first).toMatchObject({ id: fresh.messageId, role: 'assistant', seq: 2, metadata: { modelId: 'baton-demo' } });
    expect(first!.parts).toEqual(answer(fresh.messageId, 'First words').parts);

    const grown = await messagesOf(growing.chatId);
    expect(grown.map((m) => m.seq)).toEqual([1, 2]);
    expect(grown[1]!.parts[1]).toMatchObject({ text: 'Otters hold hands' });

    expect((await messagesOf(ended.chatId)).map((m) => m.role)).toEqual(['user']);
    expect((await messagesOf(recovered.chatId))[1]!.parts[1]).toMatchObject({ text: 'Kept by recovery' });
  });

  it('stores what Postgres cannot hold (NUL, a lone surrogate) as U+FFFD, like every other write', async () => {
    const r = await chatWithRun('running');
    await storeRunSnapshots(t.handle.db, [{ runId: r.runId, chatId: r.chatId, message: answer(r.messageId, 'a\u0000b\ud800c') }]);
    expect((await messagesOf(r.chatId))[1]!.parts[1]).toMatchObject({ text: 'a\uFFFDb\uFFFDc' });
  });

  it('does not write a message id of another chat (ids are global)', async () => {
    const victim = await chatWithRun('running', answer('victim_msg', 'Mine'));
    const attacker = await chatWithRun('running');
    const written = await storeRunSnapshots(t.handle.db, [
      { runId: attacker.runId, chatId: attacker.chatId, message: answer(victim.messageId, 'Overwritten?') },
    ]);
    expect(written).toBe(0);
    const rows = await t.handle.db
      .select()
      .from(message)
      .where(inArray(message.chatId, [victim.chatId, attacker.chatId]));
    expect(rows.find((m) => m.id === victim.messageId)!.parts[1]).toMatchObject({ text: 'Mine' });
  });

  it('waits for a recovery that is ending the run, then writes nothing over its repair', async () => {
    const r = await chatWithRun('running', answer('before_recovery', 'Half an answer'));
    let snapshot: Promise<number> | undefined;
    let settledEarly = false;
    await t.handle.db.transaction(async (tx) => {
      // Another replica's recovery: ends the run and repairs its message in one transaction.
      await tx.update(run).set({ status: 'interrupted' }).where(eq(run.id, r.runId));
      await tx
        .update(message)
        .set({ parts: answer(r.messageId, 'Half an answer [interrupted]').parts as never })
        .where(eq(message.id, r.messageId));
      snapshot = storeRunSnapshots(t.handle.db, [{ runId: r.runId, chatId: r.chatId, message: answer(r.messageId, 'Half an answer, and more') }]);
      void snapshot.then(() => (settledEarly = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(settledEarly).toBe(false);
    expect(await snapshot).toBe(0);
    expect((await messagesOf(r.chatId))[1]!.parts[1]).toMatchObject({ text: 'Half an answer [interrupted]' });
  });
});
