import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, message, run } from '../src/db/schema';
import { subChatStatus } from '../src/services/sub-chat-state';
import { getStream, postStream, textOf, toolParts, userMessage, NodeChat } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Any client can follow a running answer (a reload, a second tab), and stopping or
// deleting a chat stops its runs.
const t = useTestApp({ demoDelayMs: 4 });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;
const agents: Record<string, { id: string }> = {};

beforeAll(async () => {
  const create = async (name: string, body: Record<string, unknown> = {}) =>
    (agents[name] = await json(await t.request(`${ws}/agents`, { json: { name, ...body } })));
  await create('Plain');
  await create('Helper');
  await create('Boss', { subAgentIds: [agents.Helper!.id] });
});

const streamUrl = (chatId: string) => `${t.baseUrl}${ws}/chats/${chatId}/stream`;
const longText = (word: string) => `${word} `.repeat(300);

const answering = (chatId: string) => waitFor('the chat is answering', async () => ((await t.isAnswering(chatId)) ? true : undefined));

describe('GET /chats/:id/stream', () => {
  it('is 204 when nothing runs, 404 for an unknown chat', async () => {
    const chatId = uid('chat');
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), 'short') });
    expect((await t.fetch(streamUrl(chatId))).status).toBe(204);
    expect((await t.fetch(streamUrl('chat_nope'))).status).toBe(404);
  });

  it('replays a running answer from its start and follows it live to the end', async () => {
    const chatId = uid('chat');
    const original = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), longText('river')) });
    await answering(chatId);
    await new Promise((r) => setTimeout(r, 100));
    const resumed = await getStream(streamUrl(chatId));
    const first = await original;
    expect(resumed.status).toBe(200);
    expect(resumed.chunks).toEqual(first.chunks);
    expect(resumed.seqs).toEqual(resumed.chunks.map((_, i) => i));
    // It followed live: its reads are spread over time, not one burst.
    expect(resumed.reads.length).toBeGreaterThan(5);
    expect(resumed.chunks.at(-1)!.type).toBe('finish');
  });

  it('resumes after Last-Event-ID', async () => {
    const chatId = uid('chat');
    const original = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), longText('lake')) });
    await answering(chatId);
    const resumed = await getStream(streamUrl(chatId), { lastEventId: 5 });
    const first = await original;
    expect(resumed.seqs[0]).toBe(6);
    expect(resumed.chunks).toEqual(first.chunks.slice(6));
    expect((await t.fetch(streamUrl(chatId), { headers: { 'last-event-id': 'x' } })).status).toBe(400);
  });

  it('a reader that goes away does not disturb the run or the other readers', async () => {
    const chatId = uid('chat');
    const original = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), longText('brook')) });
    await answering(chatId);
    const quitter = await getStream(streamUrl(chatId), { stopAfterChunks: 3 });
    expect(quitter.chunks.length).toBeGreaterThanOrEqual(3);
    const follower = await getStream(streamUrl(chatId));
    const first = await original;
    expect(textOf(follower.chunks)).toBe(textOf(first.chunks));
  });
});

describe('stop and delete', () => {
  it('Stop ends the run for every reader; the run is cancelled with what was written kept', async () => {
    const chatId = uid('chat');
    const original = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), longText('stop')) });
    await answering(chatId);
    const follower = getStream(streamUrl(chatId));
    // Stop once words have been written (on a busy machine the first may still be on its way after a fixed pause).
    const peek = await getStream(streamUrl(chatId), { stopAfterChunks: 6 });
    expect(peek.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(0);
    expect(await json(await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' }))).toEqual({ stopped: true });
    const [a, b] = await Promise.all([original, follower]);
    expect(textOf(b.chunks)).toBe(textOf(a.chunks));
    const [row] = await t.handle.db.select().from(run).where(eq(run.chatId, chatId));
    expect(row!.status).toBe('cancelled');
    const stored = (await json(await t.request(`${ws}/chats/${chatId}`))).messages;
    expect(stored[1].metadata.stopped).toBe(true);
  });

  it('deleting a chat stops its running answer, which then writes nothing anywhere', async () => {
    const chatId = uid('chat');
    const original = postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), longText('gone')) });
    await answering(chatId);
    expect((await t.request(`${ws}/chats/${chatId}`, { method: 'DELETE' })).status).toBe(204);
    const read = await original;
    expect(read.chunks.some((c) => c.type === 'finish' && (c as { finishReason?: string }).finishReason === 'stop')).toBe(false);
    // A new chat may take the same id: the old answer never lands in it.
    const again = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Plain!.id, message: userMessage(uid('u'), 'fresh start') });
    expect(again.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const rows = await t.handle.db.select().from(message).where(eq(message.chatId, chatId));
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain('gone gone');
  });
});

describe('browser delegation and runs', () => {
  function parent() {
    return new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Boss!.id } });
  }

  async function delegated(p: NodeChat, text: string) {
    await p.sendMessage({ text });
    await p.settled();
    return toolParts(p.lastMessage, 'newTask');
  }

  async function startSub(p: NodeChat, call: { toolCallId: string }) {
    const subId = uid('sub');
    const read = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: subId,
      agentId: agents.Helper!.id,
      parentChatId: p.id,
      parentToolCallId: call.toolCallId,
      message: userMessage(uid('u'), 'task'),
    });
    expect(read.status).toBe(200);
    return subId;
  }

  it('a second tab sending the same continuation joins the answer instead of failing', async () => {
    const p = parent();
    const [call] = await delegated(p, '/delegate Helper: list rivers');
    const subId = await startSub(p, call!);
    const sub = await json(await t.request(`${ws}/chats/${subId}`));
    const output = {
      result: sub.delegateResult,
      status: 'success',
      subChatId: subId,
      outcome: 'success',
      usage: { inputTokens: 0, outputTokens: 0 },
      truncated: false,
    };
    const continuation = {
      ...p.lastMessage!,
      parts: p.lastMessage!.parts.map((part) =>
        (part as { toolCallId?: string }).toolCallId === call!.toolCallId ? { ...part, state: 'output-available', output } : part,
      ),
    };
    const [a, b] = await Promise.all([
      postStream(`${t.baseUrl}${ws}/chat`, { id: p.id, message: continuation }),
      postStream(`${t.baseUrl}${ws}/chat`, { id: p.id, message: continuation }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(textOf(a.chunks)).toBe(textOf(b.chunks));
    expect(textOf(a.chunks)).toContain('Here is what came back');
    // A third tab arriving just after the end replays the same answer.
    const late = await postStream(`${t.baseUrl}${ws}/chat`, { id: p.id, message: continuation });
    expect(late.status).toBe(200);
    expect(textOf(late.chunks)).toBe(textOf(a.chunks));
    const runs = await t.handle.db.select().from(run).where(eq(run.chatId, p.id));
    expect(runs).toHaveLength(2);
  });

  it('a rejected continuation cancels no sub-agent', async () => {
    const p = parent();
    const [c1, c2] = await delegated(p, '/delegate Helper: one\n/delegate Helper: two');
    // Started but not finished: a sub-chat row with a running run.
    const subId = uid('sub');
    await t.handle.db.insert(chat).values({
      id: subId,
      workspaceId: 'default',
      userId: t.owner.userId,
      agentId: agents.Helper!.id,
      parentChatId: p.id,
      parentToolCallId: c1!.toolCallId,
    });
    const parts = p.lastMessage!.parts.map((part) => {
      const id = (part as { toolCallId?: string }).toolCallId;
      if (id === c1!.toolCallId) return { ...part, state: 'output-error', errorText: 'Cancelled by user' };
      if (id === c2!.toolCallId)
        return {
          ...part,
          state: 'output-available',
          output: {
            result: 'x',
            status: 'success',
            subChatId: 'chat_not_its_sub_chat',
            outcome: 'success',
            usage: { inputTokens: 0, outputTokens: 0 },
            truncated: false,
          },
        };
      return part;
    });
    const before = await t.snapshot();
    const res = await t.request(`${ws}/chat`, { json: { id: p.id, message: { ...p.lastMessage!, parts } } });
    expect(res.status).toBe(400);
    expect(await t.snapshot()).toBe(before);
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.id, subId));
    expect(subChatStatus(sub!)).toBe('running');
  });

  it('regenerating a delegating answer keeps the replaced answer as a version, with its sub-chat cancelled', async () => {
    const p = parent();
    const [call] = await delegated(p, '/delegate Helper: count stones [demo:work 40]');
    // The sub-agent starts and is still at work (its stream is left after a few chunks).
    const subId = uid('sub');
    const started = await postStream(
      `${t.baseUrl}${ws}/chat`,
      { id: subId, agentId: agents.Helper!.id, parentChatId: p.id, parentToolCallId: call!.toolCallId, message: userMessage(uid('u'), 'task') },
      { stopAfterChunks: 3 },
    );
    expect(started.status).toBe(200);
    expect((await json(await t.request(`${ws}/chats/${subId}`))).status).toBe('running');
    const firstUser = p.messages[0]!;
    const res = await postStream(`${t.baseUrl}${ws}/chat`, { id: p.id, message: firstUser, trigger: 'regenerate-message' });
    expect(res.status).toBe(200);
    // The sub-chat belongs to the old answer's branch: kept, and no longer at work.
    const sub = await json(await t.request(`${ws}/chats/${subId}`));
    expect(sub.outcome).toBe('cancelled');
    await waitFor('the sub-agent to stop', async () => ((await t.isAnswering(subId)) ? undefined : true));
    const subs = await json(await t.request(`${ws}/chats/${p.id}/sub-chats`));
    expect(subs.data.map((c: { id: string }) => c.id)).toEqual([subId]);
    const now = await json(await t.request(`${ws}/chats/${p.id}`));
    expect(now.messages.at(-1).versions).toMatchObject({ index: 2, count: 2 });
  });
});
