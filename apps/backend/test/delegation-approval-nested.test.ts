import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/db/schema';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';
import type { StoredToolCall } from './support/messages';

// The root agent governs its tree: with requireApproval, a sub-agent's own newTask calls
// (depth 2, run by the server) wait for a person too. The sub-chat's run pauses
// (`awaiting_approval`), and so does the root's answer above it (nothing runs while a person
// decides); the pending call is listed on the root chat with the sub-chat to decide it on.
// Deciding resumes the sub-chat, and its result is handed up to the root's answer, which goes on.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents: Record<string, { id: string }> = {};

beforeAll(async () => {
  const create = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
    expect(res.status).toBe(201);
    agents[name] = await json(res);
  };
  await create('Leaf');
  await create('Middle', { subAgentIds: [agents.Leaf!.id] });
  await create('Root', { subAgentIds: [agents.Middle!.id], delegation: { requireApproval: true, maxDepth: 2 } });
  await create('Deep', { subAgentIds: [agents.Leaf!.id] });
  await create('Upper', { subAgentIds: [agents.Deep!.id] });
  await create('Top', { subAgentIds: [agents.Upper!.id], delegation: { requireApproval: true, maxDepth: 3 } });
});

const getChat = async (id: string) => json(await t.request(`${ws}/chats/${id}`));
const decide = (chatId: string, toolCallId: string, body: unknown) => t.request(`${ws}/chats/${chatId}/approvals/${toolCallId}`, { json: body });
const rootCall = (c: { messages: { parts: StoredToolCall[] }[] }) => c.messages.at(-1)!.parts.find((p) => p.type === 'tool-newTask')!;
/** The root chat once its answer has gone on past the delegation to its end. */
const answerEnded = (chatId: string) =>
  waitFor('the root answer ends', async () => {
    const c = await getChat(chatId);
    return c.activeRun === null && rootCall(c).output?.outcome && c.messages.at(-1).parts.at(-1)?.type === 'text' ? c : undefined;
  });

/** A root answer delegating to Middle, approved at depth 1, until Middle's own call waits. */
async function nestedPause(task: string) {
  const chatId = (await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Root!.id } }))).id as string;
  const paused = await json(await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: `/delegate Middle: /delegate Leaf: ${task}` } }));
  const first = paused.messages.at(-1).parts.find((p: StoredToolCall) => p.type === 'tool-newTask') as StoredToolCall;
  expect((await decide(chatId, first.toolCallId, { approve: true })).status).toBe(200);
  const nested = await waitFor('the depth-2 call waits, listed on the root', async () => {
    const c = await getChat(chatId);
    return c.pendingApprovals.length > 0 ? c.pendingApprovals[0] : undefined;
  });
  return { chatId, nested };
}

describe('a sub-agent’s own newTask waits for approval when the root requires it', () => {
  it('listed on the root with its sub-chat; approved there, the leaf runs and every level finishes', async () => {
    const { chatId, nested } = await nestedPause('count the otters');
    const middle = await getChat(nested.chatId);
    expect(middle).toMatchObject({ parentChatId: chatId, depth: 1, status: 'running', activeRun: null });
    expect(nested).toMatchObject({ subAgentId: agents.Leaf!.id, subAgentName: 'Leaf', task: 'count the otters' });
    expect(middle.pendingApprovals).toEqual([nested]);
    // The root's answer has paused too (not running, no slot held), its call showing why.
    const root = await waitFor('the root answer pauses', async () => {
      const c = await getChat(chatId);
      return c.activeRun === null && rootCall(c).output?.status === 'awaiting_approval' ? c : undefined;
    });
    const rootRuns = await t.handle.db.select().from(run).where(eq(run.chatId, chatId));
    expect(rootRuns.map((r) => r.status).sort()).toEqual(['awaiting_approval', 'succeeded']);
    expect(rootCall(root)).toMatchObject({ state: 'output-available', preliminary: true, output: { status: 'awaiting_approval', subChatId: nested.chatId } });
    expect((await json(await t.request(`${ws}/chats/${nested.chatId}/sub-chats`))).data).toEqual([]);

    const res = await decide(nested.chatId, nested.toolCallId, { approve: true, task: 'count the river otters' });
    expect(res.status).toBe(200);
    expect((await json(res)).run).toMatchObject({ status: 'running', kind: 'sub_agent' });
    const done = await answerEnded(chatId);
    expect(rootCall(done)).toMatchObject({ state: 'output-available', output: { outcome: 'success', subChatId: nested.chatId } });
    expect(rootCall(done).preliminary).toBeUndefined();
    const [leaf] = (await json(await t.request(`${ws}/chats/${nested.chatId}/sub-chats`))).data;
    expect(leaf).toMatchObject({ delegateTask: 'count the river otters', outcome: 'success', depth: 2 });
    expect(done.pendingApprovals).toEqual([]);
  });

  it('depth 3: every answer above the waiting call pauses; approved, the result is handed up level by level and the top answer goes on', async () => {
    const chatId = (await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Top!.id } }))).id as string;
    const paused = await json(
      await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: '/delegate Upper: /delegate Deep: /delegate Leaf: count the herons' } }),
    );
    const first = paused.messages.at(-1).parts.find((p: StoredToolCall) => p.type === 'tool-newTask') as StoredToolCall;
    expect((await decide(chatId, first.toolCallId, { approve: true })).status).toBe(200);
    const upperCall = await waitFor('Upper’s call waits', async () => (await getChat(chatId)).pendingApprovals[0]);
    expect(upperCall).toMatchObject({ subAgentName: 'Deep' });
    expect((await decide(upperCall.chatId, upperCall.toolCallId, { approve: true })).status).toBe(200);
    const deepCall = await waitFor('Deep’s call waits, and both answers above it have paused', async () => {
      const c = await getChat(chatId);
      const upper = await getChat(upperCall.chatId);
      return c.activeRun === null && upper.activeRun === null && c.pendingApprovals[0]?.subAgentName === 'Leaf' ? c.pendingApprovals[0] : undefined;
    });
    expect((await getChat(deepCall.chatId)).activeRun).toBeNull();
    expect((await getChat(upperCall.chatId)).status).toBe('running');

    expect((await decide(deepCall.chatId, deepCall.toolCallId, { approve: true, task: 'count the grey herons' })).status).toBe(200);
    const done = await answerEnded(chatId);
    expect(rootCall(done)).toMatchObject({
      output: { outcome: 'success', subChatId: upperCall.chatId, result: expect.stringContaining('count the grey herons') },
    });
    expect(done.pendingApprovals).toEqual([]);
    for (const id of [upperCall.chatId, deepCall.chatId]) expect(await getChat(id)).toMatchObject({ status: 'success', activeRun: null });
    const [leaf] = (await json(await t.request(`${ws}/chats/${deepCall.chatId}/sub-chats`))).data;
    expect(leaf).toMatchObject({ delegateTask: 'count the grey herons', outcome: 'success', depth: 3 });
  });

  it('rejected: the sub-agent gets outcome "rejected" and reports; the root finishes', async () => {
    const { chatId, nested } = await nestedPause('count the otters');
    expect((await decide(nested.chatId, nested.toolCallId, { approve: false, reason: 'too many otters' })).status).toBe(200);
    const done = await answerEnded(chatId);
    // Middle reported after reading the rejection, which its result quotes.
    expect(rootCall(done)).toMatchObject({
      state: 'output-available',
      output: { subChatId: nested.chatId, result: expect.stringContaining('too many otters') },
    });
    const middle = await getChat(nested.chatId);
    const middleCall = middle.messages.at(-1).parts.find((p: StoredToolCall) => p.type === 'tool-newTask');
    expect(middleCall.output).toMatchObject({ outcome: 'rejected', result: expect.stringContaining('too many otters') });
    expect((await json(await t.request(`${ws}/chats/${nested.chatId}/sub-chats`))).data).toEqual([]);
  });

  it('stopping the root while a nested call waits ends that sub-agent as cancelled; deciding it afterwards is 409', async () => {
    const { chatId, nested } = await nestedPause('count the otters');
    // Once the root's answer has paused above it, Stop reaches down the chain all the same.
    await waitFor('the root answer pauses', async () => ((await getChat(chatId)).activeRun === null ? true : undefined));
    await expect(json(await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' }))).resolves.toMatchObject({ stopped: true });
    const middle = await waitFor('the paused sub-agent ends', async () => {
      const c = await getChat(nested.chatId);
      return c.status !== 'running' ? c : undefined;
    });
    expect(middle).toMatchObject({ status: 'cancelled', outcome: 'cancelled', pendingApprovals: [] });
    const late = await decide(nested.chatId, nested.toolCallId, { approve: true });
    expect(late.status).toBe(409);
    const root = await getChat(chatId);
    expect(root.pendingApprovals).toEqual([]);
    expect(rootCall(root)).toMatchObject({ state: 'output-available', output: { outcome: 'cancelled', subChatId: nested.chatId } });
    expect(rootCall(root).preliminary).toBeUndefined();
    const rootRuns = await t.handle.db.select().from(run).where(eq(run.chatId, chatId));
    expect(rootRuns.map((r) => r.status).sort()).toEqual(['cancelled', 'succeeded']);
    // Nothing waits any more: the chat takes a new message.
    expect((await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'something else then' } })).status).toBe(200);
  });
});
