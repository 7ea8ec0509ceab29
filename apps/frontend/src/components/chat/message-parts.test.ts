import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { toUIMessages } from '@/lib/stored-messages';
import { groupNoteSteps, isUnanswered, readableText, partViews, silentPhase } from './message-parts';

describe('message parts', () => {
  it('turns stored messages into UI messages, keeping metadata', () => {
    const [m] = toUIMessages([
      { id: 'a', chatId: 'c', role: 'assistant', parts: [{ type: 'text', text: 'hi' }], metadata: { modelId: 'x' }, createdAt: '2026-01-01T00:00:00Z' },
    ]);
    expect(m).toMatchObject({ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hi' }], metadata: { modelId: 'x' } });
  });

  it('keeps an API caller’s system messages in their place (shown as notes)', () => {
    const roles = toUIMessages([
      { id: 's', chatId: 'c', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], metadata: null, createdAt: '2026-01-01T00:00:00Z' },
      { id: 'u', chatId: 'c', role: 'user', parts: [{ type: 'text', text: 'hi' }], metadata: null, createdAt: '2026-01-01T00:00:01Z' },
    ]).map((m) => m.role);
    expect(roles).toEqual(['system', 'user']);
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
    expect(readableText(message)).toBe('Delegating.');
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
    expect(readableText(done)).toBe('Otters.');
  });

  it('says a last user message is unanswered only when nothing is running', () => {
    const user: BatonUIMessage = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    expect(isUnanswered([user], 'ready')).toBe(true);
    expect(isUnanswered([user], 'submitted')).toBe(false);
    expect(isUnanswered([user, { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'yo' }] }], 'ready')).toBe(false);
  });

  it('folds a run of note steps into one group, keeping the step being written and everything else outside it', () => {
    const noteStep = (k: number) => [
      { type: 'step-start' },
      { type: 'text', text: `Working on step ${k} of 100.` },
      { type: 'tool-note', toolCallId: `n${k}`, state: 'output-available', input: { text: `Note ${k} of 100: write it` }, output: { saved: true } },
    ];
    const message = {
      parts: [
        { type: 'text', text: 'On it.' },
        { type: 'tool-calculator', toolCallId: 'c', state: 'output-available', input: {}, output: 4 },
        ...Array.from({ length: 100 }, (_, i) => noteStep(i + 1)).flat(),
        { type: 'step-start' },
        { type: 'text', text: 'Working on it: write it.' },
      ],
    } as Pick<BatonUIMessage, 'parts'>;
    const items = groupNoteSteps(partViews(message));
    expect(items.map((i) => i.kind)).toEqual(['text', 'tool', 'note-group', 'text']);
    const group = items[2]!;
    expect(group).toMatchObject({ kind: 'note-group', notes: 100, latest: 'Note 100 of 100: write it' });
    expect(group.kind === 'note-group' && group.views).toHaveLength(200);
  });

  it('leaves a single note inline', () => {
    const message = {
      parts: [
        { type: 'text', text: 'Noting.' },
        { type: 'tool-note', toolCallId: 'n1', state: 'input-available', input: { text: 'one' } },
        { type: 'text', text: 'Done.' },
      ],
    } as Pick<BatonUIMessage, 'parts'>;
    expect(groupNoteSteps(partViews(message)).map((i) => i.kind)).toEqual(['text', 'tool', 'text']);
  });

  describe('silentPhase: when the chat says "Thinking…"', () => {
    const user: BatonUIMessage = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'Tell me a long story' }] };
    const answer = (...parts: unknown[]) => ({ id: 'a', role: 'assistant', parts }) as BatonUIMessage;
    const calc = (state: string) => ({
      type: 'tool-calculator',
      toolCallId: 'c1',
      state,
      input: { expression: '1+1' },
      ...(state === 'output-available' ? { output: 2 } : {}),
    });

    it('from the request until the first visible word, as one silence', () => {
      const waiting = silentPhase([user], 'submitted');
      expect(waiting).toBe('after:u');
      // The answer's start and an empty step are no words yet: still the same silence.
      expect(silentPhase([user, answer()], 'streaming')).toBe(waiting);
      expect(silentPhase([user, answer({ type: 'step-start' })], 'streaming')).toBe(waiting);
      expect(silentPhase([user, answer({ type: 'step-start' }, { type: 'text', text: '  ' })], 'streaming')).toBe(waiting);
      expect(silentPhase([user, answer({ type: 'step-start' }, { type: 'text', text: 'Once' })], 'streaming')).toBeUndefined();
    });

    it('again once a step’s tool calls have their outputs and the model is asked again, until it says something', () => {
      expect(silentPhase([user, answer({ type: 'step-start' }, calc('input-available'))], 'streaming')).toBeUndefined();
      const asked = silentPhase([user, answer({ type: 'step-start' }, calc('output-available'))], 'streaming');
      expect(asked).toBe('a:1');
      expect(silentPhase([user, answer({ type: 'step-start' }, calc('output-available'), { type: 'step-start' })], 'streaming')).toBe(asked);
      expect(
        silentPhase([user, answer({ type: 'step-start' }, calc('output-available'), { type: 'step-start' }, { type: 'text', text: '2' })], 'streaming'),
      ).toBeUndefined();
    });

    it('never when nothing is running', () => {
      expect(silentPhase([user], 'ready')).toBeUndefined();
      expect(silentPhase([user], 'error')).toBeUndefined();
      expect(silentPhase([user, answer({ type: 'step-start' }, calc('output-available'))], 'ready')).toBeUndefined();
    });
  });
});
