// 1. Time to first token: through Baton's browser endpoint vs straight from the model server.
import { randomUUID } from 'node:crypto';
import { DEMO_MODEL_ID } from '@baton/demo-llm';
import type { StreamOutcome } from './client-thread';
import type { BatonServer } from './setup';
import { now, summarize, type Summary } from './stats';
import type { Thread } from './threads';

export const PROMPT = 'Hello! Please tell me how fast this answer arrives.';

export function newChatBody(agentId: string, text = PROMPT) {
  return {
    id: `chat_bench_${randomUUID()}`,
    agentId,
    message: { id: `msg_bench_${randomUUID()}`, role: 'user', parts: [{ type: 'text', text }] },
  };
}

/** What @ai-sdk/openai sends for a chat without system prompt or tools. */
export const directBody = (text = PROMPT) => ({
  model: DEMO_MODEL_ID,
  messages: [{ role: 'user', content: text }],
  stream: true,
  stream_options: { include_usage: true },
});

/** Waits (bounded) until Baton has finished storing its turns (samples run one at a time). */
export async function waitForRunEnd(baton: BatonServer, _chatId: string, timeoutMs = 5_000) {
  const deadline = now() + timeoutMs;
  while (baton.app.deps.runs.size > 0 && now() < deadline) await new Promise((r) => setTimeout(r, 1));
}

function firstToken(o: StreamOutcome, what: string): number {
  if (!o.ok || o.firstTokenMs === undefined) throw new Error(`${what}: ${o.error ?? 'no token'}`);
  return o.firstTokenMs;
}

/** One Baton sample: POST the chat endpoint, ms until the first `text-delta`; the stream is read to its end. */
export async function batonSample(client: Thread, baton: BatonServer, agentId: string): Promise<number> {
  const body = newChatBody(agentId);
  const ms = firstToken(await client.call('stream', { url: `${baton.url}/api/workspaces/default/chat`, body, kind: 'ui' }), 'Baton');
  await waitForRunEnd(baton, body.id);
  return ms;
}

/** One direct sample: POST /v1/chat/completions, ms until the first chunk with delta content. */
export async function directSample(client: Thread, baseURL: string): Promise<number> {
  return firstToken(await client.call('stream', { url: `${baseURL}/chat/completions`, body: directBody(), kind: 'completion' }), 'demo model');
}

export interface TtftResult {
  baton: Summary;
  direct: Summary;
  overhead: number;
}

/**
 * Interleaves the two kinds of sample (alternating which goes first) so drift (JIT, GC,
 * database caches) hits both alike. Bounded by `samples` and by `budgetMs`.
 */
export async function measureTtft(client: Thread, baton: BatonServer, baseURL: string, agentId: string, { samples = 50, warmups = 5, budgetMs = 60_000 } = {}): Promise<TtftResult> {
  for (let i = 0; i < warmups; i++) {
    await directSample(client, baseURL);
    await batonSample(client, baton, agentId);
  }
  const b: number[] = [];
  const d: number[] = [];
  const deadline = now() + budgetMs;
  for (let i = 0; i < samples && now() < deadline; i++) {
    if (i % 2) {
      d.push(await directSample(client, baseURL));
      b.push(await batonSample(client, baton, agentId));
    } else {
      b.push(await batonSample(client, baton, agentId));
      d.push(await directSample(client, baseURL));
    }
  }
  const batonSummary = summarize(b);
  const direct = summarize(d);
  return { baton: batonSummary, direct, overhead: batonSummary.median - direct.median };
}
