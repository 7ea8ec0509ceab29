import type { DelegationSettings, TokenUsage, UsageSplit } from '@baton/schemas';

export const totalTokens = (u: TokenUsage): number => u.inputTokens + u.outputTokens;

/** The sum; an estimate in either makes the sum an estimate (see TokenUsage.estimated). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}

export function usageSplit(own: TokenUsage, delegated: TokenUsage): UsageSplit {
  return { own, delegated, total: addUsage(own, delegated) };
}

/**
 * Tokens a new delegation may spend: the per-delegation budget, capped by what is left of
 * the tree's (one answer of the root chat and everything it delegated). Null: no limit.
 */
export function delegationBudget(root: Pick<DelegationSettings, 'maxTokensPerDelegation' | 'maxTokensPerTree'>, treeUsed: number): number | null {
  const left = root.maxTokensPerTree === null ? null : Math.max(0, root.maxTokensPerTree - treeUsed);
  if (root.maxTokensPerDelegation === null) return left;
  return left === null ? root.maxTokensPerDelegation : Math.min(left, root.maxTokensPerDelegation);
}
