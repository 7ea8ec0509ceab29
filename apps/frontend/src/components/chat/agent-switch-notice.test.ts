import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { agentSwitches, lastAnswerAgentId } from './agent-switch-notice';

const user = (id: string): BatonUIMessage => ({ id, role: 'user', parts: [{ type: 'text', text: id }] });
const answer = (id: string, metadata?: BatonUIMessage['metadata']): BatonUIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'text', text: id }],
  metadata,
});

describe('where the answering agent changed', () => {
  it('marks the question each new agent answered first (its answer when none came between), by its name then; answers that do not say who wrote them are skipped', () => {
    const messages = [
      user('u1'),
      answer('a1', { agentId: 'agent_a', agentName: 'Alpha' }),
      user('u2'),
      // Stored before the name was recorded: neither starts nor ends a run of answers.
      answer('a2'),
      user('u3'),
      answer('a3', { agentId: 'agent_b', agentName: 'Beta' }),
      answer('a4', { agentId: 'agent_b', agentName: 'Beta renamed' }),
      answer('a5', { agentId: 'agent_a', agentName: 'Alpha' }),
    ];
    expect([...agentSwitches(messages)]).toEqual([
      ['u3', 'Beta'],
      ['a5', 'Alpha'],
    ]);
    expect(lastAnswerAgentId(messages)).toBe('agent_a');
  });

  it('in a shared chat, whose answers name their agent without its id, the names tell the switches', () => {
    const shared = [
      user('u1'),
      answer('a1', { agentName: 'Assistant' }),
      user('u2'),
      answer('a2', { agentName: 'Writer' }),
      user('u3'),
      answer('a3', { agentName: 'Writer' }),
    ];
    expect([...agentSwitches(shared)]).toEqual([['u2', 'Writer']]);
  });

  it('no switch in a chat of one agent, or with no answers', () => {
    expect(agentSwitches([user('u'), answer('a', { agentId: 'x', agentName: 'X' }), answer('b', { agentId: 'x', agentName: 'X' })]).size).toBe(0);
    expect(agentSwitches([]).size).toBe(0);
    expect(lastAnswerAgentId([user('u'), answer('old')])).toBeUndefined();
  });
});
