import { describe, expect, it } from 'vitest';
import { counted, delegationWaitReason } from './counted';

describe('counts in words', () => {
  it('uses the singular for exactly one, the plural otherwise', () => {
    expect(counted(1, 'delegation')).toBe('1 delegation');
    expect(counted(0, 'delegation')).toBe('0 delegations');
    expect(counted(2, 'delegation')).toBe('2 delegations');
    expect(counted(1200, 'step')).toBe('1,200 steps');
    expect(counted(2, 'child', 'children')).toBe('2 children');
  });
});

describe('why the composer waits for delegations', () => {
  it('speaks of one call waiting for a decision as "it", of several as "each of them"', () => {
    expect(delegationWaitReason(1, 1)).toBe('Waiting for your decision on a delegation: approve or reject it above.');
    expect(delegationWaitReason(2, 2)).toBe('Waiting for your decision on 2 delegations: approve or reject each of them above.');
  });

  it('then of sub-agents still working, one or several', () => {
    expect(delegationWaitReason(0, 1)).toBe('Waiting for a sub-agent to finish. Stop ends it; open the delegation to follow it.');
    expect(delegationWaitReason(0, 3)).toBe('Waiting for 3 sub-agents to finish. Stop ends them all; open a delegation to follow it or cancel just that one.');
    expect(delegationWaitReason(0, 0)).toBeUndefined();
  });
});
