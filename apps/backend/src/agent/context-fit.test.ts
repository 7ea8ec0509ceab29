import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { contextFitter, fitMessages, lastTokensOf, outputReserve, TRIMMED_SYSTEM_NOTE } from './context-fit';
import { estimateTextTokens } from './token-estimate';

// Every message costs 10 "tokens" here, so budgets read as message counts.
const estimate = () => 10;
const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const say = (text: string): ModelMessage => ({ role: 'assistant', content: text });
const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'note', input: { text: id } }] });
const result = (id: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'note', output: { type: 'json', value: { saved: true } } }],
});
const names = (messages: ModelMessage[]) =>
  messages.map((m) =>
    typeof m.content === 'string'
      ? m.content
      : m.content.map((p) => ('toolCallId' in p ? `${m.role === 'tool' ? 'result' : 'call'}:${p.toolCallId}` : '?')).join(','),
  );

describe('fitMessages', () => {
  it('sends a conversation that fits as it is', () => {
    const messages = [user('u1'), say('a1'), user('u2')];
    expect(fitMessages(messages, 30, { estimate })).toMatchObject({ messages, dropped: 0 });
  });

  it('drops earlier turns whole, oldest first, and keeps the last turn', () => {
    const messages = [user('u1'), say('a1'), user('u2'), call('c1'), result('c1'), say('a2'), user('u3')];
    const fitted = fitMessages(messages, 40, { estimate });
    // u1+a1 go together; then u2 with its step and its answer: what stays starts with a user message.
    expect(names(fitted.messages)).toEqual(['u3']);
    expect(fitted.dropped).toBe(6);
    expect(names(fitMessages(messages, 50, { estimate }).messages)).toEqual(['u2', 'call:c1', 'result:c1', 'a2', 'u3']);
  });

  it('within the last turn drops the oldest steps, a call always with its result, and keeps the newest step', () => {
    const messages = [user('task'), call('c1'), result('c1'), call('c2'), result('c2'), call('c3'), result('c3')];
    const fitted = fitMessages(messages, 50, { estimate });
    expect(names(fitted.messages)).toEqual(['task', 'call:c2', 'result:c2', 'call:c3', 'result:c3']);
    // Over budget even with the least: the task and the newest step are sent anyway.
    expect(names(fitMessages(messages, 5, { estimate }).messages)).toEqual(['task', 'call:c3', 'result:c3']);
  });

  it('keeps a sub-agent’s task when a steering message made another user message the last', () => {
    const messages = [user('task'), call('c1'), result('c1'), call('c2'), result('c2'), user('steer'), call('c3'), result('c3')];
    const fitted = fitMessages(messages, 50, { estimate, keepFirstUsers: 1 });
    expect(names(fitted.messages)).toEqual(['task', 'steer', 'call:c3', 'result:c3']);
    expect(names(fitMessages(messages, 50, { estimate }).messages)).not.toContain('task');
  });
});

describe('lastTokensOf', () => {
  it('keeps the end of a text that is too long, within the tokens given, and never half an emoji', () => {
    expect(lastTokensOf('short', 10)).toBe('short');
    const cut = lastTokensOf(`${'a'.repeat(400)}the end`, 20);
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('the end')).toBe(true);
    expect(estimateTextTokens(cut)).toBeLessThanOrEqual(20);
    const emoji = lastTokensOf('🦦'.repeat(50), 9);
    expect(emoji).toMatch(/^…(🦦)+$/u);
  });
});

describe('contextFitter', () => {
  const long = (n: number) => 'x'.repeat(n);

  it('fits each step again, carries what was left out, and tells the model and the chat', () => {
    const fitter = contextFitter({ contextWindow: 2_000, system: 'Be brief.', toolTokens: 0, keepFirstUsers: 0 });
    const history = [user(long(2_000)), say(long(2_000)), user(long(2_000)), say(long(2_000)), user('now')];
    expect(fitter.prepareStep({ messages: history.slice(-1), steps: [] })).toBeUndefined();
    const step = fitter.prepareStep({ messages: history, steps: [] });
    expect(step?.messages.map((m) => (m.content as string).length)).toEqual([2_000, 2_000, 3]);
    expect(step?.instructions).toBe(`Be brief.\n\n${TRIMMED_SYSTEM_NOTE}`);
    expect(fitter.takeNotice()).toEqual({ contextTrimmed: { sentMessages: 3, totalMessages: 5, contextWindow: 2_000 } });
    expect(fitter.takeNotice()).toBeUndefined();
    // The next step starts from what was sent, plus its own new messages: the count of what was left out carries on.
    const next = fitter.prepareStep({ messages: [...step!.messages, say(long(2_000))], steps: [{ usage: { inputTokens: 100 } }] });
    expect(next?.messages.map((m) => (m.content as string).length)).toEqual([3, 2_000]);
    expect(fitter.trimmed).toEqual({ sentMessages: 2, totalMessages: 6, contextWindow: 2_000 });
  });

  it('believes a provider that counts more tokens than the estimate', () => {
    const fitter = contextFitter({ contextWindow: 10_000, system: '', toolTokens: 0, keepFirstUsers: 0 });
    const history = [user(long(8_000)), say(long(8_000)), user(long(8_000))];
    expect(fitter.prepareStep({ messages: history, steps: [] })).toBeUndefined();
    // The provider counted three times what the estimate said: the same messages no longer fit.
    expect(fitter.prepareStep({ messages: history, steps: [{ usage: { inputTokens: 18_000 } }] })?.messages).toHaveLength(1);
  });

  it('keeps room for the answer: the caller’s cap, else a quarter of a small window, at most 4,096 tokens', () => {
    expect(outputReserve(2_000)).toBe(500);
    expect(outputReserve(128_000)).toBe(4_096);
    expect(outputReserve(128_000, 100)).toBe(100);
  });
});
