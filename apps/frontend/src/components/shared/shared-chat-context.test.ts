import type { SharedChat, SharedSubChat } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { sharedChatSource } from './shared-chat-context';

const sub = (id: string, call: string, attempt: number, subChats: SharedSubChat[] = []): SharedSubChat => ({
  id,
  parentToolCallId: call,
  attempt,
  title: id,
  agentName: 'Researcher',
  task: `task of ${id}`,
  result: `result of ${id}`,
  status: 'success',
  outcome: 'success',
  depth: 1,
  notes: [],
  usage: { inputTokens: 3, outputTokens: 4 },
  createdAt: '2026-12-07T05:00:00.000Z',
  updatedAt: '2026-12-07T05:00:02.000Z',
  messages: [{ id: `${id}-m`, role: 'user', parts: [{ type: 'text', text: 'hi' }], metadata: null, createdAt: '2026-12-07T05:00:00.000Z' }],
  subChats,
});

const shared: SharedChat['chat'] = {
  id: 'c0',
  title: 'Otters',
  agentName: 'Assistant',
  createdAt: '2026-12-07T05:00:00.000Z',
  updatedAt: '2026-12-07T05:00:05.000Z',
  messages: [],
  subChats: [sub('c1', 'call_a', 1), sub('c2', 'call_a', 2, [sub('c3', 'call_b', 1)])],
  agents: [{ id: 'a1', name: 'Researcher' }],
};

describe('a shared chat as the transcript reads it', () => {
  it('lists each parent’s sub-chats (every attempt, nested ones under theirs) as chats, with their own messages', () => {
    const source = sharedChatSource(shared);
    expect(source.subChatsOf.get('c0')!.map((c) => [c.id, c.parentToolCallId, c.attempt, c.parentChatId])).toEqual([
      ['c1', 'call_a', 1, 'c0'],
      ['c2', 'call_a', 2, 'c0'],
    ]);
    expect(source.subChatsOf.get('c2')!.map((c) => c.id)).toEqual(['c3']);
    expect(source.subChatsOf.get('c3')).toEqual([]);
    expect(source.subChat.get('c3')!.messages[0]!.id).toBe('c3-m');
    // What the delegation block reads: times for the duration, the outcome, the result.
    expect(source.subChatsOf.get('c0')![1]).toMatchObject({
      status: 'success',
      outcome: 'success',
      delegateResult: 'result of c2',
      updatedAt: '2026-12-07T05:00:02.000Z',
    });
    expect(source.agentNames.get('a1')).toBe('Researcher');
  });
});
