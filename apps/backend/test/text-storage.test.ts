import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { createChatWithFirstMessage } from '../src/services/chats-by-id';
import { loadHistory, upsertMessage } from '../src/services/messages';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();
const ws = '/api/workspaces/default';
const REPLACEMENT = '\uFFFD';
// What a model or a tool can hand back: a NUL, a lone high and a lone low surrogate, and an emoji that must survive.
const unstorable = 'a\u0000b \ud800 c \udc00 🦦';
const stored = `a${REPLACEMENT}b ${REPLACEMENT} c ${REPLACEMENT} 🦦`;

function messageWith(id: string, role: BatonUIMessage['role'], text: string): BatonUIMessage {
  return {
    id,
    role,
    parts: [
      { type: 'text', text },
      { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'call_1', state: 'output-available', input: { q: text }, output: { [text]: [text] } },
    ],
  } as BatonUIMessage;
}

describe('text Postgres cannot store is stored with U+FFFD in its place', () => {
  it('upsertMessage: parts and metadata, on insert and on update', async () => {
    const chat = await json(await t.request(`${ws}/chats`, { json: {} }));
    await upsertMessage(t.handle.db, chat.id, messageWith('m_dirty', 'assistant', unstorable), { note: unstorable });
    await upsertMessage(t.handle.db, chat.id, messageWith('m_dirty', 'assistant', `${unstorable}!`), { note: unstorable });
    const [message] = await loadHistory(t.handle.db, chat.id);
    expect(message).toEqual({ ...messageWith('m_dirty', 'assistant', `${stored}!`), metadata: { note: stored } });
  });

  it('a new chat’s first message', async () => {
    const row = await createChatWithFirstMessage(
      t.handle.db,
      { id: 'chat_first_dirty', workspaceId: 'default' },
      messageWith('m_first_dirty', 'user', unstorable),
    );
    expect(await loadHistory(t.handle.db, row.id)).toEqual([messageWith('m_first_dirty', 'user', stored)]);
  });

  it('a user message sent to the streaming endpoint', async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Listener' } }));
    const text = 'cut off mid-emoji 😀'.slice(0, -1);
    const res = await t.request(`${ws}/chat`, {
      json: { id: 'chat_cut', agentId: agent.id, message: { id: 'm_cut', role: 'user', parts: [{ type: 'text', text }] } },
    });
    expect(res.status).toBe(200);
    await res.text();
    const chat = await json(await t.request(`${ws}/chats/chat_cut`));
    expect(chat.messages[0].parts).toEqual([{ type: 'text', text: `cut off mid-emoji ${REPLACEMENT}` }]);
  });

  it('provider model ids (a jsonb column)', async () => {
    const res = await t.request(`${ws}/providers`, { json: { name: 'P', baseUrl: 'http://p.test/v1', modelIds: ['model-\ud800'] } });
    expect(res.status).toBe(201);
    expect((await json(res)).modelIds).toEqual([`model-${REPLACEMENT}`]);
  });
});
