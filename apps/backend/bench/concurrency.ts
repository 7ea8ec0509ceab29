// 2. Many chats streaming at once: all complete, all stored, tokens relayed per second.
import { count, inArray } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { message } from '../src/db/schema';
import type { BatonServer } from './setup';
import type { StreamOutcome } from './client-thread';
import { now } from './stats';
import type { Thread } from './threads';
import { newChatBody } from './ttft';

export interface ConcurrencyResult {
  chats: number;
  completed: number;
  failed: string[];
  tokens: number;
  wallMs: number;
  tokensPerSecond: number;
  storedMessages: number;
  expectedMessages: number;
  /** From the last stream ending until every message was in the database. */
  persistWaitMs: number;
}

async function countMessages(db: Database, chatIds: string[]): Promise<number> {
  const [row] = await db.select({ n: count() }).from(message).where(inArray(message.chatId, chatIds));
  return Number(row?.n ?? 0);
}

export async function measureConcurrency(client: Thread, db: Database, baton: BatonServer, agentId: string, { chats = 100, timeoutMs = 60_000, persistWaitMs = 10_000 } = {}): Promise<ConcurrencyResult> {
  const bodies = Array.from({ length: chats }, () => newChatBody(agentId));
  const { outcomes, wallMs } = await client.call<{ outcomes: StreamOutcome[]; wallMs: number }>(
    'burst',
    { url: `${baton.url}/api/workspaces/default/chat`, bodies, kind: 'ui', timeoutMs },
    timeoutMs + 10_000,
  );
  const tokens = outcomes.reduce((sum, o) => sum + o.tokens, 0);
  const failed = outcomes.flatMap((o) => (o.ok ? [] : [o.error ?? 'failed']));

  // The turn stores the assistant message after the client's stream ends: poll, bounded.
  const ids = bodies.map((b) => b.id);
  const expected = chats * 2;
  const t1 = now();
  let stored = await countMessages(db, ids);
  while (stored < expected && now() - t1 < persistWaitMs) {
    await new Promise((r) => setTimeout(r, 20));
    stored = await countMessages(db, ids);
  }
  return {
    chats,
    completed: chats - failed.length,
    failed,
    tokens,
    wallMs,
    tokensPerSecond: tokens / (wallMs / 1000),
    storedMessages: stored,
    expectedMessages: expected,
    persistWaitMs: now() - t1,
  };
}
