import { readMessageMetadata, tokenUsageSchema, type BatonMessageMetadata, type TokenUsage, type UsageSplit } from '@baton/schemas';
import { totalTokens, usageSplit } from '@baton/delegation';
import { z } from 'zod';

/** Metadata as the footer reads it: the contract's fields, and `usage` always a split. */
export type AnswerMetadata = Omit<BatonMessageMetadata, 'usage'> & { usage?: UsageSplit };

// Answers stored before delegation v2 carry one flat usage: it was all their own.
const flatUsageSchema = z.object({ usage: tokenUsageSchema });

/** The message's metadata; an older answer's flat usage becomes its own tokens (nothing delegated). */
export function answerMetadata(metadata: unknown): AnswerMetadata {
  const meta = readMessageMetadata(metadata);
  if (meta.usage) return meta;
  const old = flatUsageSchema.safeParse(metadata);
  return old.success ? { ...meta, usage: usageSplit(old.data.usage, { inputTokens: 0, outputTokens: 0 }) } : meta;
}

const count = new Intl.NumberFormat('en-US');

/** "≈ " before a count Baton estimated because the provider reported no usage (TokenUsage.estimated). */
export const ESTIMATE_MARK = '≈ ';
const mark = (estimated: boolean | undefined) => (estimated ? ESTIMATE_MARK : '');

/** "1,234 tokens", or "≈ 1,234 tokens" for an estimate. */
export function formatTokens(n: number, estimated?: boolean): string {
  return `${mark(estimated)}${count.format(n)} ${n === 1 ? 'token' : 'tokens'}`;
}

/** "1,234 in, 56 out": the detail of one usage ("≈ …" when estimated). */
export function usageDetail(usage: TokenUsage): string {
  return `${mark(usage.estimated)}${count.format(usage.inputTokens)} in, ${count.format(usage.outputTokens)} out`;
}

/**
 * What a footer or header says of a usage split: "1,234 tokens", or with delegations
 * "300 own + 934 delegated = 1,234 tokens"; null when nothing was counted.
 */
export function formatUsageSplit(usage: UsageSplit | undefined): { short: string; detail: string } | null {
  if (!usage) return null;
  const total = totalTokens(usage.total);
  if (!total) return null;
  const delegated = totalTokens(usage.delegated);
  const estimated = usage.total.estimated || usage.own.estimated || usage.delegated.estimated;
  if (!delegated) return { short: formatTokens(total, estimated), detail: `${usageDetail({ ...usage.total, estimated })} tokens` };
  return {
    short: `${mark(usage.own.estimated)}${count.format(totalTokens(usage.own))} own + ${mark(usage.delegated.estimated)}${count.format(delegated)} delegated = ${formatTokens(total, estimated)}`,
    detail: `Own: ${usageDetail(usage.own)} · delegated: ${usageDetail(usage.delegated)} · total: ${usageDetail(usage.total)}`,
  };
}

/** "2.4 s" / "850 ms", or null. */
export function formatDuration(ms: number | undefined | null): string | null {
  if (ms === undefined || ms === null) return null;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
