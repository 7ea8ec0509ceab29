import { startProviderSimulator, type ProviderSimulator } from '@baton/provider-sim';
import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedRunError } from './support/chat-client';
import { collect, useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// Issue 18 item 5 over /v1: an answer longer than BATON_MAX_ANSWER_CHARS is cut there with
// the stored note, as in the web app and the REST API — and the OpenAI client gets the text
// up to the cut with OpenAI's own word for it, `finish_reason: "length"`, not a server error
// that would leave it nothing of the answer. The cap is shrunk here (1,000,000 by default).
const MAX = 20_000;
const t = useTestApp({ allowPrivateUrls: true, providerLimits: { maxAnswerChars: MAX, maxResponseBytes: 8 * 1024 * 1024, maxEventBytes: 256 * 1024 } });
const ws = '/api/workspaces/default';
const { client, storedAnswer } = useOpenAiClient(t);

let sim: ProviderSimulator;
let agentId: string;

beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 0 });
  sim.setBehaviour({ longAnswer: { chars: 200_000, chunkChars: 1_000 } });
  const provider = await json(await t.request(`${ws}/providers`, { json: { name: 'Talkative', baseUrl: sim.baseURL, apiKey: null, modelIds: ['sim-model'] } }));
  agentId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Talker', providerId: provider.id, modelId: 'sim-model' } }))).id;
});
afterAll(() => sim?.close());

/** The stored answer is cut at the cap with the note, and the chat takes the next message. */
async function expectCutAndStored(chatId: string, returned: string) {
  const stored = await storedAnswer(chatId);
  expect(stored.text).toHaveLength(MAX);
  expect(returned).toBe(stored.text);
  expect(storedRunError(stored.last)).toEqual({ code: 'too_long', message: expect.stringContaining('20,000 characters') });
  const next = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'And briefly?' } });
  expect(next.status).toBe(200);
}

describe('/v1/chat/completions with an answer longer than BATON_MAX_ANSWER_CHARS', () => {
  it('not streamed: the text up to the cut, finish_reason "length"; stored cut, with the note', async () => {
    const { data: completion, response } = await client()
      .chat.completions.create({ model: agentId, messages: [{ role: 'user', content: 'Tell me everything.' }] })
      .withResponse();
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('length');
    expect(choice.message.content).toHaveLength(MAX);
    await expectCutAndStored(response.headers.get(BATON_CHAT_ID_HEADER)!, choice.message.content!);
  }, 120_000);

  it('streamed: the deltas up to the cut, a last chunk with finish_reason "length", [DONE]; stored cut, with the note', async () => {
    const { data: stream, response } = await client()
      .chat.completions.create({ model: agentId, messages: [{ role: 'user', content: 'Tell me everything, as it comes.' }], stream: true })
      .withResponse();
    const { chunks, text } = await collect(stream);
    expect(text).toHaveLength(MAX);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('length');
    await expectCutAndStored(response.headers.get(BATON_CHAT_ID_HEADER)!, text);
  }, 120_000);
});
