import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { partialReason, partialResult, subChatEnd } from './sub-chat-end';

const message = (parts: unknown[]): BatonUIMessage => ({ id: 'm', role: 'assistant', parts: parts as BatonUIMessage['parts'] });
const taskResult = (input: unknown, state = 'input-available') => message([{ type: 'step-start' }, { type: 'tool-taskResult', toolCallId: 'x', state, input }]);
const text = message([{ type: 'text', text: 'I just chatted.' }]);

describe('subChatEnd', () => {
  it('takes the taskResult call when there is one', () => {
    expect(subChatEnd(taskResult({ result: 'done', status: 'success' }), { status: 'succeeded' })).toEqual({ outcome: 'success', result: 'done' });
    expect(subChatEnd(taskResult({ result: 'no', status: 'error' }), { status: 'cancelled' })).toEqual({ outcome: 'error', result: 'no' });
  });

  it('explains every way a sub-agent can end without one', () => {
    expect(subChatEnd(text, { status: 'cancelled' })).toEqual({ outcome: 'cancelled', result: 'Cancelled by user' });
    expect(subChatEnd(text, { status: 'interrupted' })).toMatchObject({ outcome: 'interrupted', result: expect.stringMatching(/interrupted/) });
    expect(subChatEnd(text, { status: 'failed', error: 'HTTP 500' }).result).toMatch(/failed: HTTP 500/);
    expect(subChatEnd(text, { status: 'succeeded' }).result).toMatch(/ended without calling taskResult\. Its last words: I just chatted\./);
    expect(subChatEnd(taskResult({ result: 'partial' }, 'input-streaming'), { status: 'succeeded' }).outcome).toBe('error');
  });
});

describe('partial results', () => {
  it('are asked for on a limit or an error, never on cancel, interrupt or a reported result', () => {
    expect(partialReason(text, { status: 'succeeded', stepLimit: true })).toBe('step_limit');
    expect(partialReason(text, { status: 'succeeded', budgetExhausted: true, stepLimit: true })).toBe('budget_exhausted');
    expect(partialReason(text, { status: 'failed', error: 'x' })).toBe('error');
    expect(partialReason(text, { status: 'cancelled' })).toBeUndefined();
    expect(partialReason(text, { status: 'interrupted' })).toBeUndefined();
    expect(partialReason(text, { status: 'succeeded' })).toBeUndefined();
    expect(partialReason(taskResult({ result: 'r', status: 'success' }), { status: 'succeeded', stepLimit: true })).toBeUndefined();
  });

  it('carry the lead, the answer and the notes', () => {
    const end = partialResult('step_limit', 'Partial result: a', [
      { text: 'one', createdAt: '' },
      { text: 'two', createdAt: '' },
    ]);
    expect(end.outcome).toBe('step_limit');
    expect(end.result).toMatch(/^The sub-agent stopped after 100 steps[^\n]*\n\nPartial result: a\n\nNotes:\n- one\n- two$/);
    expect(partialResult('error', '', [], 'HTTP 500').result).toContain('(no answer; the error was: HTTP 500)');
  });
});
