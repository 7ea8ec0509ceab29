import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { isBeyondBatchLimit, newTaskCalls, pendingNewTaskCount } from './new-task-calls';
import { subChatIdFor } from './sub-chat-id';

const call = (id: string, state = 'input-available', output?: unknown) => ({
  type: 'tool-newTask',
  toolCallId: id,
  state,
  input: { subAgentId: 'agent_r', task: `task ${id}` },
  ...(output ? { output } : {}),
});
const assistant = (parts: unknown[]): UIMessage => ({ id: 'm1', role: 'assistant', parts: parts as UIMessage['parts'] });

describe('newTaskCalls', () => {
  it('groups the calls of a message by step and numbers them within it', () => {
    const calls = newTaskCalls(assistant([{ type: 'step-start' }, call('a'), call('b'), { type: 'step-start' }, call('c')]));
    expect(calls.map((c) => [c.toolCallId, c.batchId, c.indexInStep])).toEqual([
      ['a', 'm1:1', 0],
      ['b', 'm1:1', 1],
      ['c', 'm1:2', 0],
    ]);
    expect(calls[0]).toMatchObject({ subAgentId: 'agent_r', task: 'task a' });
  });

  it('reads a valid output and ignores a malformed one', () => {
    const [good, bad] = newTaskCalls(
      assistant([call('a', 'output-available', { result: 'r', status: 'success', subChatId: 's' }), call('b', 'output-available', { nope: 1 })]),
    );
    expect(good!.output).toEqual({ result: 'r', status: 'success', subChatId: 's' });
    expect(bad!.output).toBeUndefined();
  });

  it('puts the 11th call of a step beyond the batch limit', () => {
    const calls = newTaskCalls(assistant([{ type: 'step-start' }, ...Array.from({ length: 11 }, (_, i) => call(`c${i}`))]));
    expect(calls.filter(isBeyondBatchLimit).map((c) => c.toolCallId)).toEqual(['c10']);
  });
});

describe('pendingNewTaskCount', () => {
  it('counts the last assistant message’s calls without an output', () => {
    const user: UIMessage = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    expect(pendingNewTaskCount([user])).toBe(0);
    expect(pendingNewTaskCount([user, assistant([call('a'), call('b', 'output-available', { result: 'r', status: 'success', subChatId: null })])])).toBe(1);
  });

  it('leaves out a call still being written: there is nothing to wait for yet', () => {
    expect(pendingNewTaskCount([assistant([call('a'), call('b', 'input-streaming')])])).toBe(1);
  });
});

describe('subChatIdFor', () => {
  it('is stable for a call and differs between calls and parents', () => {
    expect(subChatIdFor('chat_1', 'call_0')).toBe(subChatIdFor('chat_1', 'call_0'));
    expect(subChatIdFor('chat_1', 'call_0')).not.toBe(subChatIdFor('chat_2', 'call_0'));
    expect(subChatIdFor('chat_1', 'call_0')).not.toBe(subChatIdFor('chat_1', 'call_1'));
    expect(subChatIdFor('chat_1', 'call_0')).toMatch(/^sub_[0-9a-z]+$/);
  });
});
