import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { resetCall } from './retry-delegation';

const call = (id: string, extra: Record<string, unknown>) => ({
  type: 'tool-newTask' as const,
  toolCallId: id,
  input: { subAgentId: 'a1', task: 'old' },
  ...extra,
});

describe('resetCall', () => {
  const message = {
    id: 'm1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'text', text: 'Delegating 2 tasks.' },
      call('c1', { state: 'output-available', output: { result: 'first' } }),
      call('c2', { state: 'output-error', errorText: 'boom' }),
      { type: 'step-start' },
      { type: 'text', text: 'Here is what came back' },
      { type: 'data-run-error', data: { code: 'provider_error', message: 'x' } },
    ],
  } as BatonUIMessage;

  it('cuts the answer after the call’s step and makes only that call wait again, with the new input', () => {
    const reset = resetCall(message, 'c2', { subAgentId: 'a2', task: 'new task' });
    expect(reset.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Delegating 2 tasks.' },
      call('c1', { state: 'output-available', output: { result: 'first' } }),
      { type: 'tool-newTask', toolCallId: 'c2', state: 'input-available', input: { subAgentId: 'a2', task: 'new task' } },
    ]);
    expect(reset.id).toBe('m1');
    // The stored message object is not changed in place.
    expect((message.parts[3] as { state: string }).state).toBe('output-error');
  });

  it('keeps everything of a last step (nothing came after it)', () => {
    const oneStep: BatonUIMessage = { ...message, parts: message.parts.slice(0, 4) };
    expect(resetCall(oneStep, 'c1', { subAgentId: 'a1', task: 'old' }).parts).toHaveLength(4);
  });
});
