import { type ProviderSimulator, startProviderSimulator } from '@baton/provider-sim';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getStream, postStream, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

/*
 * The issue's own case, at full length: a provider that sends its headers and then nothing
 * for 90 s (a reasoning model thinking), under a 120 s first-byte limit and the default
 * settings otherwise. Only the real durations prove that nothing on the way — the first-byte
 * limit counting body bytes, not headers; undici's body timeout; Node's server timeouts; the
 * AI SDK — gives up on 90 s of silence. Takes ~95 s.
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

it('90 s of silence after the headers, 120 s first-byte limit: the chat stream and a resume get the whole answer', {
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
    expect(textOf(read.chunks).length).toBeGreaterThan(20);
    expect(read.chunks.at(-1)?.type).toBe('finish');
  }
  expect(resumed.chunks).toEqual(posted.chunks);
  const stored = await json(await t.request(`${ws}/chats/${chatId}`));
  expect(stored.activeRun).toBeNull();
  expect(stored.messages.at(-1).parts.some((p: { type: string }) => p.type === 'data-run-error')).toBe(false);
});
