import { type ProviderSimulator, startProviderSimulator } from '@baton/provider-sim';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getStream, postStream, type StreamRead, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

/*
 * The issue's own case, at full length: a provider that sends its headers and then nothing
 * for 90 s (a reasoning model thinking), under a 120 s first-byte limit and the default
 * 15 s keep-alive. stream-keepalive.test.ts proves the mechanism in 1.5 s; only the real
 * durations prove what it cannot: that nothing else on the way — the first-byte limit
 * counting body bytes, not headers; undici's body timeout; Node's server timeouts; the AI
 * SDK — gives up on 90 s of silence, and that the default interval keeps the stream alive
 * through it. Takes ~95 s.
 */
const SILENCE_MS = 90_000;
const t = useTestApp({ allowPrivateUrls: true, modelTimeouts: { firstByteMs: 120_000, idleMs: 60_000 } });
const ws = '/api/workspaces/default';

let sim: ProviderSimulator;
let agentId = '';
beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 1, behaviour: { silenceMs: SILENCE_MS } });
  const provider = await json(
    await t.request(`${ws}/providers`, { json: { name: 'Slow thinker', baseUrl: sim.baseURL, apiKey: null, modelIds: ['sim-model'] } }),
  );
  agentId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Slow thinker', providerId: provider.id, modelId: 'sim-model' } }))).id;
});
afterAll(() => sim?.close());

const keepAlivesBeforeFirstWord = (read: StreamRead) => {
  const firstText = read.chunks.findIndex((c) => c.type === 'text-delta');
  return read.comments.filter((c) => c.afterChunks <= firstText);
};

it('90 s of silence after the headers, 120 s first-byte limit: keep-alives every 15 s on the chat stream and a resume, then the answer', {
  timeout: 150_000,
}, async () => {
  const chatId = `chat_silent90_${Date.now().toString(36)}`;
  const started = Date.now();
  const posting = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage('u_silent90', 'Tell me a long story') });
  await waitFor('the run to start', async () => ((await t.isAnswering(chatId)) ? true : undefined));
  const resumed = await getStream(`${t.baseUrl}${ws}/chats/${chatId}/stream`);
  const posted = await posting;
  expect(Date.now() - started).toBeGreaterThanOrEqual(SILENCE_MS);

  for (const read of [posted, resumed]) {
    expect(read.error).toBeUndefined();
    const keepAlives = keepAlivesBeforeFirstWord(read);
    // One every 15 s of a 90 s silence: 5 or 6 depending on when the reader joined.
    expect(keepAlives.length).toBeGreaterThanOrEqual(5);
    // Never more than 15 s (plus a busy machine's slack) without a byte.
    const gaps = keepAlives.map((k, i) => k.at - (i === 0 ? 0 : keepAlives[i - 1]!.at));
    expect(Math.max(...gaps.slice(1))).toBeLessThan(20_000);
    expect(textOf(read.chunks).length).toBeGreaterThan(20);
    expect(read.chunks.at(-1)?.type).toBe('finish');
  }
  expect(resumed.chunks).toEqual(posted.chunks);
  const stored = await json(await t.request(`${ws}/chats/${chatId}`));
  expect(stored.activeRun).toBeNull();
  expect(stored.messages.at(-1).parts.some((p: { type: string }) => p.type === 'data-run-error')).toBe(false);
});
