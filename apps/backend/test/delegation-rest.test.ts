import { eq } from 'drizzle-orm';
import { describe, expect, it, onTestFinished } from 'vitest';
import { chat, message } from '../src/db/schema';
import { postStream } from './support/chat-client';
import { insertSubChat, useLeadTeam, withStatus } from './support/fixtures';
import { json, useTestApp } from './support/test-app';
import type { StoredPart } from './support/messages';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

async function newChat() {
  return json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
}

describe('POST /chats/:chatId/messages (server-side delegation)', () => {
  it('answers a plain message and returns the new messages', async () => {
    const c = await newChat();
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: 'Hello from a script' } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(body.messages[1].parts.find((p: StoredPart) => p.type === 'text').text).toContain('Hello from a script');
    expect((await json(await t.request(`${ws}/chats/${c.id}`))).title).toBe('Hello from a script');
  });

  it('runs parallel sub-agents itself, stores their sub-chats like the browser flow, and continues', async () => {
    const c = await newChat();
    const res = await t.request(`${ws}/chats/${c.id}/messages`, {
      json: { text: '/delegate Researcher: facts about otters\n/delegate Writer: a poem that will fail' },
    });
    expect(res.status).toBe(200);
    const { messages } = await json(res);
    const assistant = messages.at(-1);
    const calls = assistant.parts.filter((p: StoredPart) => p.type === 'tool-newTask');
    expect(calls).toHaveLength(2);
    expect(calls.map((p: StoredPart) => p.state)).toEqual(['output-available', 'output-available']);
    const [research, poem] = calls.map((p: StoredPart) => p.output);
    expect(research).toMatchObject({ status: 'success', subChatId: expect.any(String) });
    expect(poem).toMatchObject({ status: 'error', subChatId: expect.any(String) });
    const finalText = assistant.parts
      .filter((p: StoredPart) => p.type === 'text')
      .map((p: StoredPart) => p.text)
      .join('\n');
    expect(finalText).toContain(research.result.split('\n')[0]);

    const subs = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, c.id));
    expect(subs).toHaveLength(2);
    for (const [i, call] of calls.entries()) {
      const row = subs.find((s) => s.id === call.output.subChatId)!;
      expect(withStatus(row)).toMatchObject({
        parentToolCallId: call.toolCallId,
        delegateTask: call.input.task,
        agentId: call.input.subAgentId,
        status: i === 0 ? 'success' : 'error',
        delegateResult: call.output.result,
      });
      const rows = await t.handle.db.select().from(message).where(eq(message.chatId, row.id));
      const roles = rows.sort((a, b) => a.seq - b.seq).map((m) => m.role);
      expect(roles).toEqual(['user', 'assistant']);
      expect((rows[0]!.parts[0] as StoredPart).text).toBe(call.input.task);
    }
  });

  it('runs ten calls of one step and gives the eleventh an error output', async () => {
    // Ten sub-agents listen to their parent's abort: expected, so Node must not warn of a leak.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    onTestFinished(() => void process.off('warning', onWarning));
    const c = await newChat();
    const lines = Array.from({ length: 11 }, (_, i) => `/delegate Researcher: item ${i + 1}`).join('\n');
    const { messages } = await json(await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: lines } }));
    const outputs = messages
      .at(-1)
      .parts.filter((p: StoredPart) => p.type === 'tool-newTask')
      .map((p: StoredPart) => p.output);
    expect(outputs).toHaveLength(11);
    expect(outputs.slice(0, 10).every((o: any) => o.status === 'success' && o.subChatId)).toBe(true);
    expect(outputs[10]).toMatchObject({ status: 'error', subChatId: null, result: expect.stringMatching(/at most 10/) });
    expect(await t.handle.db.select().from(chat).where(eq(chat.parentChatId, c.id))).toHaveLength(10);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('an unknown sub-agent is an error output, not a failed request', async () => {
    const c = await newChat();
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/delegate Nobody: do things' } });
    expect(res.status).toBe(200);
    const call = (await json(res)).messages.at(-1).parts.find((p: StoredPart) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({
      status: 'error',
      subChatId: null,
      outcome: 'error',
      result: expect.stringMatching(/not a sub-agent Lead can delegate to/),
    });
  });

  it('streams the same turn with sub-agent progress when ?stream=1', async () => {
    const c = await newChat();
    const read = await postStream(`${t.baseUrl}${ws}/chats/${c.id}/messages?stream=1`, { text: '/delegate Researcher: streamed facts' });
    expect(read.status).toBe(200);
    const outputs = read.chunks.filter((x) => x.type === 'tool-output-available') as { output: any; preliminary?: boolean }[];
    expect(outputs.at(-1)!.output).toMatchObject({ status: 'success', subChatId: expect.any(String) });
    const progress = outputs.filter((o) => o.preliminary);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]!.output).toMatchObject({ status: 'running', subChatId: outputs.at(-1)!.output.subChatId });
    expect(read.chunks.some((x) => x.type === 'text-delta')).toBe(true);
    expect(read.chunks.at(-1)!.type).toBe('finish');
  });

  it('rejects bad requests without writing', async () => {
    const c = await newChat();
    const sub = await insertSubChat(t.handle.db, c, 'call_1');
    for (const [path, body, status] of [
      [`${ws}/chats/${c.id}/messages`, { text: '' }, 400],
      [`${ws}/chats/${c.id}/messages`, { text: 'x', extra: 1 }, 400],
      [`${ws}/chats/${c.id}/messages`, { text: 'x', agentId: 'agent_nope' }, 400],
      [`${ws}/chats/chat_nope/messages`, { text: 'x' }, 404],
      [`${ws}/chats/${sub.id}/messages`, { text: 'x' }, 409],
    ] as const) {
      const before = await t.snapshot();
      const res = await t.request(path, { json: body });
      expect(res.status).toBe(status);
      expect(await t.snapshot()).toBe(before);
    }
  });
});
