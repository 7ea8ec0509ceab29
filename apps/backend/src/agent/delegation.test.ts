import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { isBeyondBatchLimit, outcomeToOutput, subChatOutcome } from './delegation';

const call = (id: string) => ({ type: 'tool-newTask', toolCallId: id, state: 'input-available', input: { subAgentId: 'a', task: 't' } });
const message = (parts: unknown[]): UIMessage => ({ id: 'm', role: 'assistant', parts: parts as UIMessage['parts'] });

describe('isBeyondBatchLimit', () => {
  it('counts newTask calls per step: the 11th of a step is beyond, the first of the next step is not', () => {
    const first = Array.from({ length: 11 }, (_, i) => call(`s1-${i}`));
    const m = message([{ type: 'step-start' }, ...first, { type: 'step-start' }, call('s2-0')]);
    expect(isBeyondBatchLimit(m, 's1-9')).toBe(false);
    expect(isBeyondBatchLimit(m, 's1-10')).toBe(true);
    expect(isBeyondBatchLimit(m, 's2-0')).toBe(false);
  });
});

describe('subChatOutcome', () => {
  const taskResult = (input: unknown, state = 'input-available') =>
    message([{ type: 'step-start' }, { type: 'tool-taskResult', toolCallId: 'x', state, input }]);

  it('takes the taskResult call when there is one', () => {
    expect(subChatOutcome(taskResult({ result: 'done', status: 'success' }), { status: 'succeeded', steps: 1 })).toEqual({ status: 'success', result: 'done' });
    expect(subChatOutcome(taskResult({ result: 'no', status: 'error' }), { status: 'cancelled', steps: 1 })).toEqual({ status: 'error', result: 'no' });
  });

  it('explains every way a sub-agent can end without one', () => {
    const text = message([{ type: 'text', text: 'I just chatted.' }]);
    expect(subChatOutcome(text, { status: 'cancelled', steps: 1 })).toEqual({ status: 'cancelled', result: 'Cancelled by user' });
    expect(subChatOutcome(text, { status: 'interrupted', steps: 1 })).toMatchObject({ status: 'error', result: expect.stringMatching(/interrupted/) });
    expect(subChatOutcome(text, { status: 'failed', error: 'HTTP 500', steps: 1 }).result).toMatch(/failed: HTTP 500/);
    expect(subChatOutcome(text, { status: 'succeeded', steps: 100 })).toMatchObject({
      status: 'error',
      result: expect.stringMatching(/100 steps without calling taskResult/),
    });
    expect(subChatOutcome(text, { status: 'succeeded', steps: 2 }).result).toMatch(/ended without calling taskResult\. Its last words: I just chatted\./);
    expect(subChatOutcome(taskResult({ result: 'partial' }, 'input-streaming'), { status: 'succeeded', steps: 1 }).status).toBe('error');
  });

  it('maps a cancelled sub-chat to an error output for the parent', () => {
    expect(outcomeToOutput({ status: 'cancelled', result: 'Cancelled by user' }, 'chat_1')).toEqual({
      status: 'error',
      result: 'Cancelled by user',
      subChatId: 'chat_1',
    });
  });
});
