// Spent tokens are spent: a sub-agent that is stopped mid-task, and the sub-chats of an
// answer that is regenerated, keep counting in every place a person reads usage — the
// sub-chat, the parent's roll-up (the chat header), the delegation tree and the run.
// (A process killed mid-run: usage-crash.test.ts.)
import type { TokenUsage } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { run } from '../src/db/schema';
import { postStream, userMessage } from './support/chat-client';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';
import type { StoredPart } from './support/messages';

const t = useTestApp({ demoDelayMs: 2 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

const tokens = (u: TokenUsage) => u.inputTokens + u.outputTokens;
const getChat = async (id: string) => json(await t.request(`${ws}/chats/${id}`));
const subChatsOf = async (id: string) => (await json(await t.request(`${ws}/chats/${id}/sub-chats`))).data as { id: string; status: string }[];

async function runsOf(chatId: string) {
  return t.handle.db.select().from(run).where(eq(run.chatId, chatId));
}

describe('tokens of sub-agents that did not finish are counted', () => {
  it('a sub-agent stopped mid-task: its steps’ tokens stay on the sub-chat, its run, the parent’s roll-up, the call’s output and the tree', async () => {
    const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
    const turn = t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: '/delegate Writer: draft the report [demo:work 40]' } });
    const sub = await waitFor('a running sub-chat', async () => (await subChatsOf(parent.id)).find((s) => s.status === 'running'));
    await waitFor('a few note steps', async () => ((await getChat(sub.id)).notes.length >= 4 ? true : undefined));
    expect((await json(await t.request(`${ws}/chats/${sub.id}/stop`, { method: 'POST' }))).stopped).toBe(true);
    const done = await json(await turn);

    const stopped = await getChat(sub.id);
    expect(stopped.outcome).toBe('cancelled');
    // What the stored answer says it used (step by step, as the live view showed it).
    const spent: TokenUsage = stopped.messages.at(-1).metadata.usage.own;
    expect(tokens(spent)).toBeGreaterThan(0);
    expect(stopped.usage.own).toEqual(spent);
    const [subRun] = await runsOf(sub.id);
    expect(subRun).toMatchObject({ status: 'cancelled', inputTokens: spent.inputTokens, outputTokens: spent.outputTokens });
    expect(subRun!.steps).toBeGreaterThanOrEqual(4);

    const call = done.messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ outcome: 'cancelled', usage: spent });
    expect((await getChat(parent.id)).usage.delegated).toEqual(spent);
    const { root } = await json(await t.request(`${ws}/chats/${parent.id}/trace`));
    expect(root.children[0]).toMatchObject({ chatId: sub.id, usage: spent });
  });

  it('regenerating an answer keeps its sub-chats with the old version, and what they spent still counts for the chat', async () => {
    const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
    const first = await t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: '/delegate Writer: a poem about otters' } });
    expect(first.status).toBe(200);
    const [sub] = await subChatsOf(parent.id);
    const subSpent: TokenUsage = (await getChat(sub!.id)).usage.own;
    expect(tokens(subSpent)).toBeGreaterThan(0);
    const before = await getChat(parent.id);
    expect(before.usage.delegated).toEqual(subSpent);

    const user = before.messages.find((m: { role: string }) => m.role === 'user');
    const again = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: parent.id,
      message: userMessage(user.id, '/delegate Writer: a poem about otters'),
      trigger: 'regenerate-message',
    });
    expect(again.status).toBe(200);
    // The old answer is a version of the new one, on a branch of its own, with the sub-chat it made.
    expect((await subChatsOf(parent.id)).map((c) => c.id)).toEqual([sub!.id]);

    const after = await getChat(parent.id);
    // The new answer's calls wait for the browser: nothing new is delegated yet.
    expect(after.usage.delegated).toEqual(subSpent);
    expect(tokens(after.usage.own)).toBeGreaterThan(tokens(before.usage.own));
    expect(tokens(after.usage.total)).toBe(tokens(after.usage.own) + tokens(subSpent));
    // The tree still has the sub-chat (the trace is of every branch: spent tokens are spent).
    const { root } = await json(await t.request(`${ws}/chats/${parent.id}/trace`));
    expect(root.children.map((c: { chatId: string }) => c.chatId)).toEqual([sub!.id]);
    expect(root.replacedUsage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(after.messages.at(-1).versions).toMatchObject({ index: 2, count: 2 });
  });
});
