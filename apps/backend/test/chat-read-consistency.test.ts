import { describe, expect, it } from 'vitest';
import { postStream, userMessage } from './support/chat-client';
import { json, useTestApp } from './support/test-app';

// A chat read while its answer ends must never say "nothing is running" without the answer
// that run stored: the page would then show the question unanswered, and a browser-run
// delegation would have no call left to deliver its result to (seen in the e2e suite under
// load). On Postgres the read's queries go to several pool connections, each seeing the
// database as of its own start, so this is a real race there.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
// The race needs several connections (Postgres); on PGlite, whose queries take turns on one, a few turns check the same rule.
const TURNS = process.env.DATABASE_URL ? 40 : 8;
const READS_AT_ONCE = 4;

type Read = { activeRun: unknown; messages: { role: string }[] };

describe('a chat read as its answer ends', () => {
  it('never finds the run ended without the answer it stored', async () => {
    const agentId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Reader' } }))).id;
    const inconsistent: string[] = [];
    for (let i = 0; i < TURNS; i++) {
      const chatId = `chat_read_${Date.now().toString(36)}_${i}`;
      const turn = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId, message: userMessage(`u_read_${i}_${Date.now()}`, `hello ${i}`) });
      let ended = false;
      const until = Date.now() + 20_000;
      while (!ended && Date.now() < until) {
        // In-process reads on PGlite settle in promise jobs alone: without a turn of the event
        // loop between polls, the turn's own HTTP request would never be read.
        await new Promise((resolve) => setImmediate(resolve));
        // Several reads at once: more chances that the run's end commits in the middle of one.
        const reads = await Promise.all(Array.from({ length: READS_AT_ONCE }, () => t.request(`${ws}/chats/${chatId}`)));
        for (const res of reads) {
          if (res.status !== 200) continue;
          const chat = (await json(res)) as Read;
          if (chat.activeRun !== null) continue;
          ended = true;
          if (chat.messages.at(-1)?.role !== 'assistant') inconsistent.push(`${chatId}: ${chat.messages.map((m) => m.role).join(',')}`);
        }
      }
      expect(ended, `turn ${i} ended within 20 s`).toBe(true);
      expect((await turn).status).toBe(200);
    }
    expect(inconsistent).toEqual([]);
  }, 120_000);
});
