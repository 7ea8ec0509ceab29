import { describe, expect, it } from 'vitest';
import { cycleThrough, describeCycle } from './sub-agent-cycles';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([id, subAgentIds]) => [id, { id, name: id.toUpperCase(), subAgentIds }]));

describe('cycles in the sub-agents card', () => {
  it('finds the shortest way back to the edited agent, directly or through others', () => {
    const g = graph({ a: ['b', 'c'], b: ['a'], c: ['d'], d: ['x', 'a'], x: [] });
    expect(cycleThrough('b', 'a', g)).toEqual(['a', 'b', 'a']);
    expect(cycleThrough('c', 'a', g)).toEqual(['a', 'c', 'd', 'a']);
    expect(cycleThrough('x', 'a', g)).toBeNull();
  });

  it('ends on loops that do not pass the edited agent, and on unknown ids', () => {
    const g = graph({ a: ['b'], b: ['c', 'gone'], c: ['b'] });
    expect(cycleThrough('b', 'a', g)).toBeNull();
  });

  it('says what the depth limit does: nothing offered at depth 1, the other sub-agents below it', () => {
    const g = graph({ a: ['b'], b: ['a', 'c'], c: [] });
    expect(describeCycle(['a', 'b', 'a'], g, 1, 'Lead')).toContain('With a depth limit of 1, B gets no sub-agents at all when it works for Lead.');
    expect(describeCycle(['a', 'b', 'a'], g, 2, 'Lead')).toContain('Within the depth limit of 2, B may still delegate to C.');
    expect(describeCycle(['a', 'b', 'a'], graph({ a: ['b'], b: ['a'] }), 3, 'Lead')).toContain(
      'B has no other sub-agent to offer within the depth limit of 3.',
    );
  });
});
