import { addUsage, delegationBudget, totalTokens } from '@baton/delegation';
import type { DelegationSettings, TokenUsage } from '@baton/schemas';

/**
 * The tokens a delegation tree spends while the root chat answers one message, counted in
 * process as steps end: each run adds its steps to its own counter, to every sub-agent
 * above it, and to the tree's. A sub-agent stops when its counter (its own work plus its
 * subtree's) reaches its budget, or the tree's reaches the tree budget.
 */
export interface UsageMeter {
  /** Everything delegated in this answer of the root chat (all depths). */
  tree: TokenUsage;
  /** This run's own work plus its subtree's (the root chat's own work is not delegated: not counted). */
  own: TokenUsage;
  /** The counters this run's steps add to: the tree's, the sub-agents above, its own. Empty for the root chat. */
  chain: TokenUsage[];
  /** Tokens this sub-agent may spend; null: no limit. */
  limit: number | null;
  treeLimit: number | null;
  /** Set when a budget stopped the run. */
  exhausted: boolean;
}

const zero = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0 });

export function rootMeter(): UsageMeter {
  return { tree: zero(), own: zero(), chain: [], limit: null, treeLimit: null, exhausted: false };
}

/** The meter of a sub-agent started below `parent` (the tree already holding `treeUsed` tokens when it is not counted in process). */
export function childMeter(parent: UsageMeter, root: Pick<DelegationSettings, 'maxTokensPerDelegation' | 'maxTokensPerTree'>): UsageMeter {
  const own = zero();
  const above = parent.chain.length > 0 ? parent.chain : [parent.tree];
  return {
    tree: parent.tree,
    own,
    chain: [...above, own],
    limit: delegationBudget(root, totalTokens(parent.tree)),
    treeLimit: root.maxTokensPerTree,
    exhausted: false,
  };
}

export function record(meter: UsageMeter, usage: TokenUsage): void {
  for (const counter of meter.chain) Object.assign(counter, addUsage(counter, usage));
}

export function overBudget(meter: UsageMeter): boolean {
  const over = (meter.limit !== null && totalTokens(meter.own) >= meter.limit) || (meter.treeLimit !== null && totalTokens(meter.tree) >= meter.treeLimit);
  if (over) meter.exhausted = true;
  return over;
}
