// Steering a running sub-agent over REST: a message sent to its sub-chat is queued (202), reaches
// the sub-agent when its current step ends, is stored in the sub-chat where the model saw it, and
// changes the result the parent receives. The demo model's `[demo:steer]` sub-agent waits for it.
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_TEXT_CHARS } from '@baton/schemas';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';
import { startWaitingSubAgent as startWaiting } from './support/steering';
import { waitFor } from './support/wait';
import type { StoredPart } from './support/messages';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

async function newChat() {
  return json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
}

const startWaitingSubAgent = () => startWaiting(t, agents.Lead!.id);

const steer = (chatId: string, body: unknown) => t.request(`${ws}/chats/${chatId}/messages`, { json: body });

describe('POST /chats/:subChatId/messages (steering a running sub-agent)', () => {
  it('queues the message (202), delivers it at the next step, and the result the parent gets reflects it', async () => {
    const { sub, turn } = await startWaitingSubAgent();
    const res = await steer(sub.id, { text: 'Go to Porto 🚀' });
    expect(res.status).toBe(202);
    const queued = await json(res);
    expect(queued).toMatchObject({ id: expect.stringMatching(/^steer_/), chatId: sub.id, text: 'Go to Porto 🚀', status: 'queued', deliveredAt: null });

    const done = await turn;
    expect(done.status).toBe(200);
    const answer = (await json(done)).messages.at(-1);
    const call = answer.parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ status: 'success', outcome: 'success', subChatId: sub.id });
    expect(call.output.result).toContain('Latest instruction: Go to Porto 🚀');
    // The parent's answer after the call quotes the steered result.
    expect(answer.parts.filter((p: StoredPart) => p.type === 'text').at(-1).text).toContain('Latest instruction: Go to Porto 🚀');

    const { data } = await json(await t.request(`${ws}/chats/${sub.id}/steering`));
    expect(data).toEqual([{ ...queued, status: 'delivered', stepNumber: expect.any(Number), deliveredAt: expect.any(String) }]);
    expect(data[0].stepNumber).toBeGreaterThanOrEqual(1);

    // Stored in the sub-chat's answer where the model saw it: after a waiting step, before the result.
    const stored = await json(await t.request(`${ws}/chats/${sub.id}`));
    const parts: StoredPart[] = stored.messages.at(-1).parts;
    const at = parts.findIndex((p) => p.type === 'steering-message');
    expect(parts[at]).toEqual({ type: 'steering-message', id: queued.id, parts: [{ type: 'text', text: 'Go to Porto 🚀' }] });
    expect(parts.slice(0, at).some((p) => p.type === 'tool-note')).toBe(true);
    expect(parts.slice(at).some((p) => p.type === 'tool-taskResult')).toBe(true);
  });

  it('delivers several messages in order; the sub-agent reports the latest', async () => {
    const { sub, turn } = await startWaitingSubAgent();
    expect((await steer(sub.id, { text: 'first: Lisbon' })).status).toBe(202);
    expect((await steer(sub.id, { text: 'second: Porto' })).status).toBe(202);
    const call = (await json(await turn)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output.result).toContain('Latest instruction: second: Porto');
    const { data } = await json(await t.request(`${ws}/chats/${sub.id}/steering`));
    expect(data.map((m: { text: string; status: string }) => [m.text, m.status])).toEqual([
      ['first: Lisbon', 'delivered'],
      ['second: Porto', 'delivered'],
    ]);
    const stored = await json(await t.request(`${ws}/chats/${sub.id}`));
    const steered = stored.messages.at(-1).parts.filter((p: StoredPart) => p.type === 'steering-message');
    expect(steered.map((p: StoredPart) => p.parts![0]!.text)).toEqual(['first: Lisbon', 'second: Porto']);
  });

  it('a message still queued when the sub-agent is stopped was never delivered, and says so', async () => {
    const { sub, turn } = await startWaitingSubAgent();
    // Right after a waiting step ended the next one is in its 500 ms pause: queue and stop within it.
    const notes = async () => (await json(await t.request(`${ws}/chats/${sub.id}`))).notes.length as number;
    const seen = await waitFor('a first waiting step', async () => ((await notes()) > 0 ? notes() : undefined));
    await waitFor('the next waiting step', async () => ((await notes()) > seen ? true : undefined));
    const queued = await json(await steer(sub.id, { text: 'too slow' }));
    expect((await json(await t.request(`${ws}/chats/${sub.id}/stop`, { method: 'POST' }))).stopped).toBe(true);
    const call = (await json(await turn)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ outcome: 'cancelled' });
    expect(call.output.result).not.toContain('too slow');
    const { data } = await json(await t.request(`${ws}/chats/${sub.id}/steering`));
    expect(data).toEqual([{ ...queued, status: 'not_delivered' }]);
    const stored = await json(await t.request(`${ws}/chats/${sub.id}`));
    expect(stored.messages.at(-1).parts.some((p: StoredPart) => p.type === 'steering-message')).toBe(false);
  });

  it('409 once the sub-agent has ended, 404 for an unknown chat, 400 for bad text — and nothing is written', async () => {
    const { sub, turn } = await startWaitingSubAgent();
    expect((await steer(sub.id, { text: 'finish now' })).status).toBe(202);
    await turn;
    const cases: [string, unknown, number, RegExp][] = [
      [sub.id, { text: 'too late' }, 409, /not running any more \(it ended: success\).*retry the delegation/],
      ['chat_nope', { text: 'x' }, 404, /not found/],
      [sub.id, { text: '' }, 400, /empty/],
      [sub.id, { text: 'a\u0000b' }, 400, /NUL/],
      [sub.id, { text: 'x'.repeat(MAX_MESSAGE_TEXT_CHARS + 1) }, 400, /at most/],
      [sub.id, { text: 'x', agentId: agents.Writer!.id }, 400, /keeps the sub-agent/],
      [sub.id, { text: 'x', extra: true }, 400, /./],
    ];
    for (const [chatId, body, status, message] of cases) {
      const before = await t.snapshot();
      const res = await steer(chatId, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect((await json(res)).error.message).toMatch(message);
      expect(await t.snapshot()).toBe(before);
    }
  });

  it('a top-level chat still runs a turn; the steering list of an unknown chat is 404', async () => {
    const parent = await newChat();
    expect((await steer(parent.id, { text: 'hello' })).status).toBe(200);
    expect((await t.request(`${ws}/chats/chat_nope/steering`)).status).toBe(404);
  });
});
