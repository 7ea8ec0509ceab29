import type { UIMessage } from 'ai';

/** What the backend records on an assistant message (apps/backend/src/agent/turn.ts). */
export interface AssistantMetadata {
  agentId?: string;
  modelId?: string;
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  durationMs?: number;
  firstTokenMs?: number | null;
  finishReason?: string;
  /** The user stopped the answer; what was streamed before it is kept. */
  stopped?: boolean;
}

/** Metadata is free-form JSON on the wire: read only fields of the expected type. */
export function assistantMetadata(message: Pick<UIMessage, 'metadata'>): AssistantMetadata {
  const raw = message.metadata;
  if (!raw || typeof raw !== 'object') return {};
  const m = raw as Record<string, unknown>;
  const usage = m.usage && typeof m.usage === 'object' ? (m.usage as Record<string, unknown>) : undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    agentId: str(m.agentId),
    modelId: str(m.modelId),
    usage: usage ? { inputTokens: num(usage.inputTokens), outputTokens: num(usage.outputTokens), totalTokens: num(usage.totalTokens) } : undefined,
    durationMs: num(m.durationMs),
    firstTokenMs: num(m.firstTokenMs),
    finishReason: str(m.finishReason),
    stopped: m.stopped === true ? true : undefined,
  };
}

const count = new Intl.NumberFormat('en-US');

/** "1,234 tokens" with in/out detail for a tooltip, or null when the usage is unknown. */
export function formatUsage(usage: AssistantMetadata['usage']): { short: string; detail: string } | null {
  if (!usage) return null;
  const total = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  if (!total) return null;
  const parts = [
    usage.inputTokens !== undefined ? `${count.format(usage.inputTokens)} in` : null,
    usage.outputTokens !== undefined ? `${count.format(usage.outputTokens)} out` : null,
  ].filter(Boolean);
  return {
    short: `${count.format(total)} ${total === 1 ? 'token' : 'tokens'}`,
    detail: parts.length ? `${parts.join(', ')} tokens` : `${count.format(total)} tokens`,
  };
}

/** "2.4 s" / "850 ms", or null. */
export function formatDuration(ms: number | undefined): string | null {
  if (ms === undefined) return null;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
