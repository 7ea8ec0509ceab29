import type { DelegationSettings, TokenUsage, UsageSplit } from '@baton/schemas';

export const totalTokens = (u: TokenUsage): number => u.inputTokens + u.outputTokens;

/** The sum; an estimate in either makes the sum an estimate (see TokenUsage.estimated). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.estimated || b.estimated) sum.estimated = true;
  if (a.unknown || b.unknown) sum.unknown = true;
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

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The output cap of each step of a sub-agent with a budget: a share of the budget, so that
 * the check before a step can count the step's worst case and still leave room for several.
 */
export function stepOutputCap(budget: number): number {
  return clamp(Math.floor(budget / 8), 64, 4096);
}

/** The output cap of the final call that asks a stopped sub-agent for its result so far. */
export function partialResultReserve(budget: number): number {
  return clamp(Math.floor(budget / 16), 32, 1024);
}

/** What the next step would cost at most: its input (the transcript so far) and its output cap. */
export interface NextStep {
  inputTokens: number;
  outputCap: number;
}

/**
 * Whether a sub-agent may take its next step (ADR 0016): what it used, plus the step, plus
 * the final partial-result call after it — whose input is the transcript then (the step's
 * input and output again) and whose output is the reserve — must fit in the budget. When
 * they do not, it stops now and makes that final call instead, which then fits too.
 */
export function nextStepFits(budget: number, used: number, next: NextStep): boolean {
  const step = next.inputTokens + next.outputCap;
  return used + step + step + partialResultReserve(budget) <= budget;
}

/** The next step's input, estimated from the last one: its input, its output and what its tools returned (about four characters a token). */
export function nextStepInput(last: { inputTokens: number; outputTokens: number; toolResultChars: number }): number {
  return last.inputTokens + last.outputTokens + Math.ceil(last.toolResultChars / 4);
}
