import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { toUIMessages } from '@/lib/stored-messages';
import { isUnanswered, messageText, partViews } from './message-parts';

describe('message parts', () => {
  it('turns stored messages into UI messages, keeping metadata', () => {
    const [m] = toUIMessages([
      { id: 'a', chatId: 'c', role: 'assistant', parts: [{ type: 'text', text: 'hi' }], metadata: { modelId: 'x' }, createdAt: '2026-01-01T00:00:00Z' },
    ]);
    expect(m).toMatchObject({ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hi' }], metadata: { modelId: 'x' } });
  });

  it('shows delegation and task-result parts through their own views', () => {
    const message = {
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Delegating.' },
        { type: 'tool-newTask', toolCallId: 'c1', state: 'input-available', input: {} },
        { type: 'tool-taskResult', toolCallId: 'c2', state: 'input-available', input: {} },
      ],
    } as Pick<BatonUIMessage, 'parts'>;
    expect(partViews(message).map((v) => v.kind)).toEqual(['text', 'delegation', 'task-result']);
    expect(messageText(message)).toBe('Delegating.');
  });

  it('says a last user message is unanswered only when nothing is running', () => {
    const user: BatonUIMessage = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    expect(isUnanswered([user], 'ready')).toBe(true);
    expect(isUnanswered([user], 'submitted')).toBe(false);
    expect(isUnanswered([user, { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'yo' }] }], 'ready')).toBe(false);
  });
});
