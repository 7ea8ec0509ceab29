// Retrying one delegation over REST: a new attempt (a new sub-chat) of a finished newTask call of
// the last answer, with the same or another sub-agent and optionally an edited task. The answer
// is continued from the call's step with the new output; siblings keep their results.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';
import { type StoredPart, partsText } from './support/messages';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

async function answered(text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const calls: StoredPart[] = (await json(res)).messages.at(-1).parts.filter((p: StoredPart) => p.type === 'tool-newTask');
  return { chatId: c.id as string, calls };
}

const retry = (chatId: string, toolCallId: string, body: unknown = {}) =>
  t.request(`${ws}/chats/${chatId}/delegations/${encodeURIComponent(toolCallId)}/retry`, { json: body });

/** The stored answer once the new attempt ended and the answer was written again after it. */
async function answerAfter(chatId: string, toolCallId: string, subChatId: string) {
  return waitFor(
    'the answer continued after the retried delegation',
    async () => {
      const stored = await json(await t.request(`${ws}/chats/${chatId}`));
      if (stored.activeRun) return undefined;
      const answer = stored.messages.at(-1);
      const call = answer.parts.find((p: StoredPart) => p.toolCallId === toolCallId);
      const tail = answer.parts.at(-1);
      return call?.output?.subChatId === subChatId && tail?.type === 'text' ? answer : undefined;
    },
    20_000,
  );
}

const textOf = (answer: { parts: StoredPart[] }) => partsText(answer.parts);

describe('POST /chats/:id/delegations/:toolCallId/retry', () => {
  it('runs the same delegation again as attempt 2, replaces its output, keeps the sibling, and answers again', async () => {
    const { chatId, calls } = await answered('/delegate Researcher: facts about otters\n/delegate Writer: a poem that will fail');
    const [research, poem] = calls;
    expect(poem!.output.outcome).toBe('error');

    const res = await retry(chatId, poem!.toolCallId!, { task: 'a poem about rivers' });
    expect(res.status).toBe(202);
    const body = await json(res);
    expect(body).toEqual({
      toolCallId: poem!.toolCallId,
      subChatId: expect.any(String),
      attempt: 2,
      subAgentId: agents.Writer!.id,
      task: 'a poem about rivers',
    });
    expect(body.subChatId).not.toBe(poem!.output.subChatId);

    const answer = await answerAfter(chatId, poem!.toolCallId!, body.subChatId);
    const parts: StoredPart[] = answer.parts;
    const newPoem = parts.find((p) => p.toolCallId === poem!.toolCallId)!;
    expect(newPoem.input).toMatchObject({ subAgentId: agents.Writer!.id, task: 'a poem about rivers' });
    expect(newPoem.output).toMatchObject({ outcome: 'success', status: 'success', subChatId: body.subChatId });
    expect(newPoem.output.result).toContain('Done: a poem about rivers');
    // The sibling keeps its output, and its sub-agent did not run again.
    expect(parts.find((p) => p.toolCallId === research!.toolCallId)!.output).toEqual(research!.output);
    // The text after the calls was written again from the new results: once, not twice.
    const text = textOf(answer);
    expect(text).toContain('(success): Done: a poem about rivers');
    expect(text).not.toContain('Failed: a poem that will fail');
    expect(text.match(/Here is what came back/g)).toHaveLength(1);

    const rows = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, chatId));
    const byCall = (id: string) => rows.filter((r) => r.parentToolCallId === id).sort((a, b) => a.attempt - b.attempt);
    expect(byCall(research!.toolCallId!).map((r) => r.attempt)).toEqual([1]);
    // Earlier attempts stay, numbered.
    expect(byCall(poem!.toolCallId!).map((r) => [r.attempt, r.id, r.outcome])).toEqual([
      [1, poem!.output.subChatId, 'error'],
      [2, body.subChatId, 'success'],
    ]);
    const listed = (await json(await t.request(`${ws}/chats/${chatId}/sub-chats`))).data;
    expect(listed.filter((s: { parentToolCallId: string }) => s.parentToolCallId === poem!.toolCallId).map((s: { attempt: number }) => s.attempt)).toEqual([
      1, 2,
    ]);
  });

  it('runs it with another sub-agent (same task by default), and the answer names it', async () => {
    const { chatId, calls } = await answered('/delegate Researcher: three facts about herons');
    const res = await retry(chatId, calls[0]!.toolCallId!, { subAgentId: agents.Writer!.id });
    expect(res.status).toBe(202);
    const body = await json(res);
    expect(body).toMatchObject({ attempt: 2, subAgentId: agents.Writer!.id, task: 'three facts about herons' });
    const answer = await answerAfter(chatId, calls[0]!.toolCallId!, body.subChatId);
    expect(textOf(answer)).toContain('**Writer** (success): Done: three facts about herons');
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.id, body.subChatId));
    expect(sub).toMatchObject({ agentId: agents.Writer!.id, attempt: 2, delegateTask: 'three facts about herons', depth: 1 });

    // A third attempt is numbered 3.
    const third = await json(await retry(chatId, calls[0]!.toolCallId!));
    expect(third.attempt).toBe(3);
    await answerAfter(chatId, calls[0]!.toolCallId!, third.subChatId);
  });

  it('409 while the delegation or the chat is still at work, for an older answer and for a sub-chat; 404 and 400 as usual — nothing written', async () => {
    // A retry whose sub-agent waits for steering keeps the call unfinished while the checks run.
    const { chatId, calls } = await answered('/delegate Researcher: short facts');
    const callId = calls[0]!.toolCallId!;
    const waiting = await json(await retry(chatId, callId, { task: 'wait for me [demo:steer]' }));
    // The waiting sub-agent keeps writing notes, so "nothing written" is checked on what a retry would write.
    // The chat ids in a fixed order: its writes move the sub-chat's row, and an unordered read follows the rows.
    const parentState = async () =>
      JSON.stringify([
        await json(await t.request(`${ws}/chats/${chatId}`)).then((c) => c.messages),
        await t.handle.db.select({ id: chat.id }).from(chat).orderBy(chat.id),
      ]);
    for (const [target, status, message] of [
      [chatId, 409, /has not finished yet/],
      [waiting.subChatId, 409, /top-level chat/],
    ] as const) {
      const before = await parentState();
      const res = await retry(target, callId);
      expect(res.status, target).toBe(status);
      expect((await json(res)).error.message).toMatch(message);
      expect(await parentState()).toBe(before);
    }
    // Steering ends the wait; the answer is written again.
    expect((await t.request(`${ws}/chats/${waiting.subChatId}/messages`, { json: { text: 'done waiting' } })).status).toBe(202);
    await answerAfter(chatId, callId, waiting.subChatId);

    const missing: [string, string][] = [
      [chatId, 'call_nope'],
      ['chat_nope', callId],
    ];
    for (const [target, call] of missing) {
      const before = await t.snapshot();
      const res = await retry(target, call);
      expect(res.status).toBe(404);
      expect((await json(res)).error.message).toMatch(/not found/);
      expect(await t.snapshot()).toBe(before);
    }
    const bad: [unknown, RegExp][] = [
      [{ subAgentId: agents.Lead!.id }, /subAgentId: .*not a sub-agent Lead can delegate to/],
      [{ subAgentId: 'agent_nope' }, /subAgentId/],
      [{ task: '   ' }, /empty/],
      [{ task: 'a\u0000b' }, /NUL/],
      [{ extra: 1 }, /./],
    ];
    for (const [body, message] of bad) {
      const before = await t.snapshot();
      const res = await retry(chatId, callId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.message).toMatch(message);
      expect(await t.snapshot()).toBe(before);
    }

    // Once a newer message exists, the old answer's delegations are history.
    expect((await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'thanks' } })).status).toBe(200);
    const before = await t.snapshot();
    const late = await retry(chatId, callId);
    expect(late.status).toBe(409);
    expect((await json(late)).error.message).toMatch(/only a delegation of the last answer/);
    expect(await t.snapshot()).toBe(before);
  });

  it('409 while the chat itself is answering', async () => {
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
    const turn = t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/delegate Researcher: hold on [demo:steer]' } });
    const sub = await waitFor('a running sub-chat', async () => (await json(await t.request(`${ws}/chats/${c.id}/sub-chats`))).data[0]);
    const stored = await waitFor('the call stored', async () => {
      const s = await json(await t.request(`${ws}/chats/${c.id}`));
      return s.messages.at(-1)?.parts.find((p: StoredPart) => p.type === 'tool-newTask');
    });
    const res = await retry(c.id, stored.toolCallId);
    expect(res.status).toBe(409);
    expect((await json(res)).error.message).toMatch(/answering/);
    await t.request(`${ws}/chats/${sub.id}/messages`, { json: { text: 'go' } });
    expect((await turn).status).toBe(200);
  });

  it('a new message to the chat while the retried attempt works is 409 (its result would have nowhere to go); the answer continues after it', async () => {
    const { chatId, calls } = await answered('/delegate Researcher: facts about otters');
    const before = await json(await t.request(`${ws}/chats/${chatId}`));
    const res = await retry(chatId, calls[0]!.toolCallId!, { task: 'facts about otters, once more [demo:steer]' });
    expect(res.status).toBe(202);
    const attempt = await json(res);
    const refused = await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'never mind, something else' } });
    expect(refused.status).toBe(409);
    expect((await json(refused)).error.message).toMatch(/still working/);
    // Nothing was added: the chat still ends with the retried answer.
    expect((await json(await t.request(`${ws}/chats/${chatId}`))).messages).toHaveLength(before.messages.length);
    expect((await t.request(`${ws}/chats/${attempt.subChatId}/messages`, { json: { text: 'go ahead' } })).status).toBe(202);
    const answer = await answerAfter(chatId, calls[0]!.toolCallId!, attempt.subChatId);
    expect(textOf(answer)).toContain('go ahead');
    // Once it has its result the chat takes new messages again.
    expect((await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'and beavers?' } })).status).toBe(200);
  });
});
