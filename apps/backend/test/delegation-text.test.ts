import { MAX_NOTE_CHARS } from '@baton/schemas';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { appendNote } from '../src/services/sub-chat-state';
import { json, useTestApp } from './support/test-app';
import type { StoredPart } from './support/messages';

// What Postgres refuses in jsonb (U+0000, a lone UTF-16 surrogate) and what must survive
// (emoji) on every path delegation v2 added: notes, nested tasks, the context given to a
// sub-agent, a result cut at maxResultChars. Nothing may be refused or lost.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const REPLACEMENT = '\uFFFD';
const agents: Record<string, { id: string }> = {};

async function createAgent(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, description: `${name} agent`, ...body } });
  expect(res.status).toBe(201);
  agents[name] = await json(res);
}

async function ask(agentId: string, texts: string[], chatId?: string) {
  const id = chatId ?? (await json(await t.request(`${ws}/chats`, { json: { agentId } }))).id;
  let last: { parts: StoredPart[] } | undefined;
  for (const text of texts) {
    const res = await t.request(`${ws}/chats/${id}/messages`, { json: { text } });
    expect(res.status).toBe(200);
    last = (await json(res)).messages.at(-1);
  }
  const outputs = last!.parts.filter((p) => p.type === 'tool-newTask').map((p) => p.output);
  return { chatId: id as string, outputs };
}

const subChatsOf = (parentId: string) => t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId)).orderBy(asc(chat.createdAt));
const wellFormed = (s: string) => !s.includes('\u0000') && s.isWellFormed();

beforeAll(async () => {
  await createAgent('Leaf');
  await createAgent('Middle', { subAgentIds: [agents.Leaf!.id] });
  await createAgent('Deep', { subAgentIds: [agents.Middle!.id, agents.Leaf!.id], delegation: { maxDepth: 2 } });
  await createAgent('Full', { subAgentIds: [agents.Leaf!.id], delegation: { contextMode: 'full' } });
  await createAgent('Summary', { subAgentIds: [agents.Leaf!.id], delegation: { contextMode: 'summary' } });
  await createAgent('Capped', { subAgentIds: [agents.Leaf!.id], delegation: { maxResultChars: 100 } });
});

describe('NUL, lone surrogates and emoji through delegation', () => {
  it('a note cut at MAX_NOTE_CHARS right inside an emoji is stored (not refused), without half the emoji', async () => {
    // The demo model's note is "Note 1 of 1: " (13 characters) + the task's words: the
    // emoji's high surrogate lands on the last kept character.
    const word = `${'x'.repeat(MAX_NOTE_CHARS - 14)}🦦`;
    const { chatId, outputs } = await ask(agents.Deep!.id, [`/delegate Leaf: [demo:work 1] ${word} more`]);
    expect(outputs[0]).toMatchObject({ outcome: 'success' });
    const [sub] = await subChatsOf(chatId);
    expect(sub!.notes).toHaveLength(1);
    const note = sub!.notes[0]!.text;
    expect(wellFormed(note)).toBe(true);
    expect(note.startsWith('Note 1 of 1: xxx')).toBe(true);
    expect(note.length).toBeLessThanOrEqual(MAX_NOTE_CHARS);
  });

  it('a note holding NUL, lone surrogates and emoji (what a model may write) is stored with U+FFFD in their place', async () => {
    const { chatId } = await ask(agents.Deep!.id, ['/delegate Leaf: anything']);
    const [sub] = await subChatsOf(chatId);
    await appendNote(t.handle.db, sub!.id, 'a\u0000b \ud800 🦦 \udc00');
    const [row] = await t.handle.db.select().from(chat).where(eq(chat.id, sub!.id));
    expect(row!.notes.at(-1)!.text).toBe(`a${REPLACEMENT}b ${REPLACEMENT} 🦦 ${REPLACEMENT}`);
  });

  it('a nested (depth-2) task holding emoji and a lone surrogate reaches both levels, and the notes with it', async () => {
    const { chatId, outputs } = await ask(agents.Deep!.id, ['/delegate Middle: /delegate Leaf: [demo:work 1] otters 🦦 half \ud83d end']);
    expect(outputs[0]).toMatchObject({ outcome: 'success' });
    const [middle] = await subChatsOf(chatId);
    const [leaf] = await subChatsOf(middle!.id);
    expect(middle!.delegateTask).toBe(`/delegate Leaf: [demo:work 1] otters 🦦 half ${REPLACEMENT} end`);
    expect(leaf).toMatchObject({ depth: 2, outcome: 'success', delegateTask: `[demo:work 1] otters 🦦 half ${REPLACEMENT} end` });
    expect(leaf!.notes.map((n) => n.text)).toEqual([`Note 1 of 1: otters 🦦 half ${REPLACEMENT} end`]);
    const stored = await json(await t.request(`${ws}/chats/${leaf!.id}`));
    expect(stored.messages[0].parts[0].text).toBe(leaf!.delegateTask);
  });

  for (const mode of ['full', 'summary'] as const) {
    it(`${mode} context from a conversation holding NUL, a lone surrogate and emoji`, async () => {
      // [demo:garbage]: the reply ends with a NUL and a lone surrogate, as careless providers send.
      const { chatId, outputs } = await ask(agents[mode === 'full' ? 'Full' : 'Summary']!.id, ['otters 🦦 [demo:garbage]', '/delegate Leaf: go on']);
      expect(outputs[0]).toMatchObject({ outcome: 'success' });
      const [sub] = await subChatsOf(chatId);
      expect(sub!.contextMode).toBe(mode);
      expect(sub!.delegateContext).toContain('🦦');
      expect(wellFormed(sub!.delegateContext!)).toBe(true);
      if (mode === 'full') expect(sub!.delegateContext).toContain(REPLACEMENT);
    });
  }

  it('a result cut at maxResultChars right at an emoji keeps no half of it; the sub-chat keeps it whole', async () => {
    // "Done: " + 93 characters puts the emoji's high surrogate at index 99, the last one kept.
    const { chatId, outputs } = await ask(agents.Capped!.id, [`/delegate Leaf: ${'a'.repeat(93)}🦦`]);
    expect(outputs[0]).toMatchObject({ outcome: 'success', truncated: true });
    const result = outputs[0].result as string;
    expect(wellFormed(result)).toBe(true);
    expect(result.startsWith(`Done: ${'a'.repeat(93)}`)).toBe(true);
    const [sub] = await subChatsOf(chatId);
    expect(sub!.delegateResult).toContain(`${'a'.repeat(93)}🦦`);
  });
});
