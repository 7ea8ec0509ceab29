import { describe, expect, it } from 'vitest';
import { postStream, storedRunError, textOf, userMessage } from './support/chat-client';
import { collectGarbage } from './support/gc';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

/*
 * The web app's stalled story: the default (in-process) demo model sends a few words, then
 * nothing, and the page's connection to the stream drops. The run must still end at the
 * idle limit (here 1 s) with its reason stored. It used not to once the process had
 * collected garbage: undici's `Request` follows its `init.signal` only while the Request
 * object lives (nodejs/undici#3644), so the timeout's abort never reached the demo model's
 * stream, and the run waited on a read that never settled.
 */
const t = useTestApp({ defaultModel: async () => ({ kind: 'demo' }), modelTimeouts: { firstByteMs: 10_000, idleMs: 1_000 } });
const ws = '/api/workspaces/default';
let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

describe('a stalled answer', () => {
  it('whose client disconnected ends at the idle limit, after a garbage collection too', async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: uid('Writer') } }));
    const chatId = uid('chat');
    const disconnect = new AbortController();
    const read = await postStream(
      `${t.baseUrl}${ws}/chat`,
      { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'Tell me a long story [demo:stall]') },
      { stopAfterChunks: 4, signal: disconnect.signal },
    );
    disconnect.abort();
    expect(textOf(read.chunks)).not.toBe('');
    // The process collects garbage while the model is silent (a few times: the stall starts a few words later).
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await waitFor('the run to end', async () => ((await t.isAnswering(chatId)) ? undefined : true), 15_000);
    const full = await json(await t.request(`${ws}/chats/${chatId}`));
    const answer = full.messages.at(-1);
    expect(storedRunError(answer)).toEqual({ code: 'timeout', message: expect.stringContaining('stopped sending for 1 s') });
    expect(answer.parts.find((p: { type: string }) => p.type === 'text').text).toContain('This is Baton');
  });
});
