import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { isBehindShown, withUnsentOutputs } from './follow-server-run';

const call = (toolCallId: string, state: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool-newTask',
  toolCallId,
  state,
  input: { subAgentId: 'agent_a', task: toolCallId },
  ...extra,
});
const answer = (...parts: unknown[]) =>
  [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] },
    { id: 'a1', role: 'assistant', parts },
  ] as BatonUIMessage[];
const done = { result: 'r', outcome: 'success' };

describe('the stored transcript with this tab’s unsent outputs', () => {
  it('takes a decision made meanwhile and keeps the output of a call that ran here', () => {
    const local = answer(call('c1', 'output-available', { output: done }), call('c2', 'approval-requested'));
    const stored = answer(call('c1', 'approval-responded'), call('c2', 'approval-responded', { input: { subAgentId: 'agent_a', task: 'edited' } }));
    const { messages, unsent } = withUnsentOutputs(local, stored);
    expect(messages.at(-1)!.parts.map((p) => (p as { state: string }).state)).toEqual(['output-available', 'approval-responded']);
    expect((messages.at(-1)!.parts[1] as { input: { task: string } }).input.task).toBe('edited');
    expect(unsent.map((p) => p.toolCallId)).toEqual(['c1']);
  });

  it('keeps the server’s output where it has one, and the stored copy as is when nothing is unsent', () => {
    const stored = answer(call('c1', 'output-available', { output: { result: 'server', outcome: 'success' } }));
    const local = answer(call('c1', 'output-available', { output: done }));
    expect(withUnsentOutputs(local, stored)).toEqual({ messages: stored, unsent: [] });
  });

  it('does not carry outputs into another message', () => {
    const local = answer(call('c1', 'output-available', { output: done }));
    const stored = [...answer(call('c1', 'approval-responded')), { id: 'a2', role: 'assistant', parts: [call('c1', 'input-available')] }] as BatonUIMessage[];
    expect(withUnsentOutputs(local, stored).unsent).toEqual([]);
  });
});

describe('a stored copy older than the page', () => {
  const text = (t: string) => ({ type: 'text', text: t, state: 'done' });
  it('is behind when it lacks a message the page shows, or parts of the page’s last message', () => {
    const shown = answer(call('c1', 'output-available', { output: done }), { type: 'step-start' }, text('Here is what came back'));
    expect(isBehindShown(shown, answer(call('c1', 'output-available', { output: done })))).toBe(true);
    expect(isBehindShown(shown, shown.slice(0, 1))).toBe(true);
  });

  it('is not behind when it holds as much or more: outputs given here, or a continuation the page has not seen', () => {
    const shown = answer(call('c1', 'output-available', { output: done }));
    expect(isBehindShown(shown, answer(call('c1', 'input-available')))).toBe(false);
    expect(isBehindShown(shown, answer(call('c1', 'output-available', { output: done }), { type: 'step-start' }, text('more')))).toBe(false);
    expect(isBehindShown([], shown)).toBe(false);
  });
});
