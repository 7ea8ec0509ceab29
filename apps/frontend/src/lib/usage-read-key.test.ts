import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { usageReadKey } from './usage-read-key';

const user: BatonUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Research otters' }] };
const call = (state: 'input-available' | 'output-available', output?: unknown) =>
  ({ type: 'tool-newTask', toolCallId: 'c1', state, input: { subAgentId: 'a', task: 't' }, ...(output ? { output } : {}) }) as BatonUIMessage['parts'][number];
const tokens = (inputTokens: number) => ({ inputTokens, outputTokens: 0 });
const answer = (parts: BatonUIMessage['parts'], total?: number): BatonUIMessage => ({
  id: 'a1',
  role: 'assistant',
  parts,
  ...(total === undefined ? {} : { metadata: { usage: { own: tokens(total), delegated: tokens(0), total: tokens(total) } } }),
});

describe('when the chat header reads the usage again', () => {
  it('not while an answer streams', () => {
    expect(usageReadKey([user, answer([{ type: 'text', text: 'Hi' }])], false)).toBeNull();
  });

  it('when a new answer has ended', () => {
    const one = usageReadKey([user, answer([{ type: 'text', text: 'Hi' }])], true);
    const two = usageReadKey([user, answer([{ type: 'text', text: 'Hi' }]), user, { ...answer([{ type: 'text', text: 'Again' }]), id: 'a2' }], true);
    expect(one).not.toBeNull();
    expect(two).not.toBe(one);
  });

  it('when the last answer is written again without this tab streaming it (a retried delegation continued)', () => {
    // The tab stays "ready" throughout: only the stored answer, read again, changes.
    const waiting = usageReadKey([user, answer([call('input-available')])], true);
    const delivered = usageReadKey([user, answer([call('output-available', { status: 'success', result: 'r' })])], true);
    const continued = usageReadKey([user, answer([call('output-available', { status: 'success', result: 'r' }), { type: 'text', text: 'Otters…' }])], true);
    const counted = usageReadKey([user, answer([call('output-available', { status: 'success', result: 'r' }), { type: 'text', text: 'Otters…' }], 1200)], true);
    expect(new Set([waiting, delivered, continued, counted]).size).toBe(4);
  });

  it('not again when nothing changed (a re-render)', () => {
    const messages = [user, answer([{ type: 'text', text: 'Hi' }], 10)];
    expect(usageReadKey(messages, true)).toBe(usageReadKey([...messages], true));
  });
});
