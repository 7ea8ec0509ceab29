import { type ProviderSimulator, startProviderSimulator } from '@baton/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStream, postStream, type StreamRead, textOf, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

/*
 * A model that thinks before its first visible word (headers at once, then silence) must
 * not look like a dead connection: every stream of the run carries SSE keep-alive comments
 * while it is silent, and the answer then arrives. Short silence and interval here; the
 * 90 s silence against a 120 s first-byte limit is silent-provider-90s.test.ts.
 */
const KEEPALIVE_MS = 150;
const SILENCE_MS = 1_500;
const t = useTestApp({ allowPrivateUrls: true, streamKeepAliveMs: KEEPALIVE_MS, modelTimeouts: { firstByteMs: 5_000, idleMs: 5_000 } });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

let sim: ProviderSimulator;
let agentId = '';
beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 1, behaviour: { silenceMs: SILENCE_MS } });
  const provider = await json(await t.request(`${ws}/providers`, { json: { name: 'Thinker', baseUrl: sim.baseURL, apiKey: null, modelIds: ['sim-model'] } }));
  agentId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Thinker', providerId: provider.id, modelId: 'sim-model' } }))).id;
});
afterAll(() => sim?.close());

/** Keep-alives that came while the run had sent nothing but its opening chunks, and before the first word. */
function keepAlivesBeforeFirstWord(read: StreamRead): number {
  const firstText = read.chunks.findIndex((c) => c.type === 'text-delta');
  return read.comments.filter((c) => c.text === ': keep-alive' && (firstText === -1 || c.afterChunks <= firstText)).length;
}

const finished = (read: StreamRead) => read.chunks.at(-1)?.type === 'finish';

describe('a silent model', () => {
  it('the chat stream (POST) and a resume (GET …/stream) get keep-alives while it thinks, then the whole answer', async () => {
    const chatId = uid('chat');
    const posting = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(uid('u'), 'Tell me a long story') });
    // A second reader joins while the model is silent, as a page does after its stream dropped.
    await waitFor('the run to start', async () => ((await t.isAnswering(chatId)) ? true : undefined));
    const resumed = await getStream(`${t.baseUrl}${ws}/chats/${chatId}/stream`);
    const posted = await posting;

    for (const read of [posted, resumed]) {
      expect(read.status).toBe(200);
      expect(read.error).toBeUndefined();
      // 1.5 s of silence at a 150 ms interval: several, not one (timing on a loaded machine varies).
      expect(keepAlivesBeforeFirstWord(read)).toBeGreaterThanOrEqual(3);
      expect(textOf(read.chunks)).toMatch(/offline demo model|Tell me a long story/i);
      expect(finished(read)).toBe(true);
    }
    // The resume is event for event the same answer (the comments carry no id and no data).
    expect(resumed.chunks).toEqual(posted.chunks);
    const stored = await json(await t.request(`${ws}/chats/${chatId}`));
    expect(stored.activeRun).toBeNull();
    expect(stored.messages.at(-1).parts.some((p: { type: string }) => p.type === 'text')).toBe(true);
  });

  it('a REST answer streamed with ?stream=1 gets them too', async () => {
    const chat = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
    const started = Date.now();
    const res = await t.fetch(`${t.baseUrl}${ws}/chats/${chat.id}/messages?stream=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Think hard about otters' }),
    });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SILENCE_MS);
    const beforeWords = body.slice(0, body.indexOf('"text-delta"'));
    expect(beforeWords.match(/^: keep-alive$/gm)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(body).toContain('"type":"finish"');
  });

  it('no keep-alive interrupts an answer that keeps coming', async () => {
    sim.setBehaviour({});
    try {
      const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId, message: userMessage(uid('u'), 'hello') });
      expect(finished(read)).toBe(true);
      // Words every millisecond: nothing is silent for 150 ms, except perhaps the start on a busy machine.
      expect(read.comments.length).toBeLessThanOrEqual(2);
    } finally {
      sim.setBehaviour({ silenceMs: SILENCE_MS });
    }
  });
});
