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

  it('shows reasoning as a thinking view: streaming, then done with the server’s timing', () => {
    const thinking = {
      parts: [{ type: 'reasoning', text: '', state: 'streaming' }],
    } as Pick<BatonUIMessage, 'parts'>;
    expect(partViews(thinking)).toEqual([{ kind: 'reasoning', text: '', streaming: true }]);
    const done = {
      parts: [
        { type: 'reasoning', text: 'First, **otters**.', state: 'done', providerMetadata: { baton: { thinkingMs: 12_300 } } },
        { type: 'text', text: 'Otters.' },
      ],
    } as Pick<BatonUIMessage, 'parts'>;
    expect(partViews(done)[0]).toEqual({ kind: 'reasoning', text: 'First, **otters**.', streaming: false, thinkingMs: 12_300 });
    // An empty finished reasoning part shows nothing; reasoning is never copied as the answer.
    expect(partViews({ parts: [{ type: 'reasoning', text: ' ', state: 'done' }] } as Pick<BatonUIMessage, 'parts'>)).toEqual([]);
    expect(messageText(done)).toBe('Otters.');
  });

  it('says a last user message is unanswered only when nothing is running', () => {
    const user: BatonUIMessage = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    expect(isUnanswered([user], 'ready')).toBe(true);
    expect(isUnanswered([user], 'submitted')).toBe(false);
    expect(isUnanswered([user, { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'yo' }] }], 'ready')).toBe(false);
  });
});
