import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { awaitingApprovalCount, pendingNewTaskCount } from './new-task-calls';
import { subChatIdFor } from './sub-chat-id';

const call = (id: string, state = 'input-available', output?: unknown) => ({
  type: 'tool-newTask',
  toolCallId: id,
  state,
  input: { subAgentId: 'agent_r', task: `task ${id}` },
  ...(output ? { output } : {}),
});
const assistant = (parts: unknown[]): BatonUIMessage => ({ id: 'm1', role: 'assistant', parts: parts as BatonUIMessage['parts'] });

describe('pendingNewTaskCount', () => {
  it('counts the last assistant message’s calls without an output', () => {
    const user: BatonUIMessage = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    expect(pendingNewTaskCount([user])).toBe(0);
    expect(pendingNewTaskCount([user, assistant([call('a'), call('b', 'output-available', { result: 'r', status: 'success', subChatId: null })])])).toBe(1);
  });

  it('leaves out a call still being written: there is nothing to wait for yet', () => {
    expect(pendingNewTaskCount([assistant([call('a'), call('b', 'input-streaming')])])).toBe(1);
  });
});

describe('calls waiting for approval', () => {
  it('hold the answer like running ones, and are counted apart so the composer can say a decision is needed', () => {
    const message = assistant([call('a', 'approval-requested'), call('b', 'approval-responded'), call('c', 'output-available', { outcome: 'rejected' })]);
    expect(pendingNewTaskCount([message])).toBe(2);
    expect(awaitingApprovalCount([message])).toBe(1);
    expect(awaitingApprovalCount([message, { id: 'u', role: 'user', parts: [{ type: 'text', text: 'next' }] }])).toBe(0);
  });
});

describe('subChatIdFor', () => {
  it('is stable for a call and differs between calls and parents', () => {
    expect(subChatIdFor('chat_1', 'call_0')).toBe(subChatIdFor('chat_1', 'call_0'));
    expect(subChatIdFor('chat_1', 'call_0')).not.toBe(subChatIdFor('chat_1', 'call_1'));
    expect(subChatIdFor('chat_1', 'call_0')).not.toBe(subChatIdFor('chat_2', 'call_0'));
    expect(subChatIdFor('chat_1', 'call_0')).toMatch(/^sub_[0-9a-z]+$/);
  });
});
