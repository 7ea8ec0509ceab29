import { addUsage, delegationBudget, nextStepFits, stepOutputCap, totalTokens, type NextStep } from '@baton/delegation';
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
  /** The output cap of each of its steps while a budget applies (see stepOutputCap); null: none. */
  stepCap: number | null;
  /** Set when a budget stopped the run. */
  exhausted: boolean;
}

const zero = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0 });

export function rootMeter(): UsageMeter {
  return { tree: zero(), own: zero(), chain: [], limit: null, treeLimit: null, stepCap: null, exhausted: false };
}

/** The meter of a sub-agent started below `parent` (the tree already holding `treeUsed` tokens when it is not counted in process). */
export function childMeter(parent: UsageMeter, root: Pick<DelegationSettings, 'maxTokensPerDelegation' | 'maxTokensPerTree'>): UsageMeter {
  const own = zero();
  const above = parent.chain.length > 0 ? parent.chain : [parent.tree];
  let limit = delegationBudget(root, totalTokens(parent.tree));
  // A delegating sub-agent's budget covers its subtree: what it delegates gets at most what it has left.
  if (parent.limit !== null) limit = Math.min(limit ?? Number.POSITIVE_INFINITY, Math.max(0, parent.limit - totalTokens(parent.own)));
  return {
    tree: parent.tree,
    own,
    chain: [...above, own],
    limit,
    treeLimit: root.maxTokensPerTree,
    stepCap: limit === null ? null : stepOutputCap(limit),
    exhausted: false,
  };
}

export function record(meter: UsageMeter, usage: TokenUsage): void {
  for (const counter of meter.chain) Object.assign(counter, addUsage(counter, usage));
}

/**
 * Checked before each step (after the one before it ended): whether the next step, and the
 * final partial-result call after it, would pass the sub-agent's budget or the tree's (ADR
 * 0016). Without an estimate of the next step only a budget already reached stops it.
 */
export function overBudget(meter: UsageMeter, next?: NextStep): boolean {
  const passes = (budget: number | null, used: number) => budget !== null && (next ? !nextStepFits(budget, used, next) : used >= budget);
  const over = passes(meter.limit, totalTokens(meter.own)) || passes(meter.treeLimit, totalTokens(meter.tree));
  if (over) meter.exhausted = true;
  return over;
}
