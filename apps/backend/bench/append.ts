// 3. Storing one more turn (user + assistant message) in a long chat vs a short one.
import { randomUUID } from 'node:crypto';
import { DEFAULT_WORKSPACE_ID } from '@baton/schemas';
import type { BatonUIMessage } from '@baton/schemas';
import type { Database } from '../src/db/client';
import { chat, message } from '../src/db/schema';
import { loadHistory, upsertMessage } from '../src/services/messages';
import { median, now } from './stats';

const USER_TEXT = 'Could you summarise the trade-offs between storing chat messages as rows and as one JSON array? ';
const ASSISTANT_TEXT = 'Rows keep each write small and indexed; a growing array rewrites the whole value on every append. '.repeat(6);

const userMessage = (): BatonUIMessage => ({ id: `msg_${randomUUID()}`, role: 'user', parts: [{ type: 'text', text: USER_TEXT }] });
const assistantMessage = (): BatonUIMessage => ({
  id: `msg_${randomUUID()}`,
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'text', text: ASSISTANT_TEXT, state: 'done' }],
});
// Stored as the bench always stored it (an older usage shape): only its size matters here.
const ASSISTANT_METADATA: Record<string, unknown> = { modelId: 'baton-demo', usage: { inputTokens: 120, outputTokens: 90, totalTokens: 210 } };

/** A chat holding `size` alternating user/assistant messages, inserted in bulk. */
async function prefilledChat(db: Database, size: number): Promise<string> {
  const id = `chat_bench_${size}_${randomUUID()}`;
  await db.insert(chat).values({ id, workspaceId: DEFAULT_WORKSPACE_ID, title: `bench ${size}` });
  for (let start = 0; start < size; start += 250) {
    const rows = Array.from({ length: Math.min(250, size - start) }, (_, i) => {
      const m = (start + i) % 2 === 0 ? userMessage() : assistantMessage();
      return {
        id: m.id,
        chatId: id,
        role: m.role as 'user' | 'assistant',
        parts: m.parts,
        metadata: m.role === 'assistant' ? ASSISTANT_METADATA : null,
        seq: start + i + 1,
      };
    });
    await db.insert(message).values(rows);
  }
  return id;
}

async function appendTurn(db: Database, chatId: string): Promise<number> {
  const t0 = now();
  await upsertMessage(db, chatId, userMessage());
  await upsertMessage(db, chatId, assistantMessage(), ASSISTANT_METADATA);
  return now() - t0;
}

export interface AppendResult {
  small: { size: number; median: number };
  large: { size: number; median: number };
  ratio: number;
  samples: number;
  /** For context, not a target: loading the whole history grows with the chat. */
  loadHistory: { small: number; large: number };
}

export async function measureAppend(db: Database, { small = 10, large = 1_000, samples = 50, warmups = 5, budgetMs = 60_000 } = {}): Promise<AppendResult> {
  const smallId = await prefilledChat(db, small);
  const largeId = await prefilledChat(db, large);
  for (let i = 0; i < warmups; i++) {
    await appendTurn(db, smallId);
    await appendTurn(db, largeId);
  }
  const s: number[] = [];
  const l: number[] = [];
  const deadline = now() + budgetMs;
  for (let i = 0; i < samples && now() < deadline; i++) {
    // Alternate the order so neither chat always runs on a warmer cache.
    if (i % 2) {
      l.push(await appendTurn(db, largeId));
      s.push(await appendTurn(db, smallId));
    } else {
      s.push(await appendTurn(db, smallId));
      l.push(await appendTurn(db, largeId));
    }
  }
  const loads = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < 10 && now() < deadline + 10_000; i++) {
    let t0 = now();
    await loadHistory(db, smallId);
    loads.small.push(now() - t0);
    t0 = now();
    await loadHistory(db, largeId);
    loads.large.push(now() - t0);
  }
  const sm = median(s);
  const lm = median(l);
  return {
    small: { size: small, median: sm },
    large: { size: large, median: lm },
    ratio: lm / sm,
    samples: s.length,
    loadHistory: { small: median(loads.small), large: median(loads.large) },
  };
}
