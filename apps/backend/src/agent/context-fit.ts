import type { ContextTrimmed } from '@baton/schemas';
import { asSchema, type ModelMessage, type ToolSet } from 'ai';
import { estimateMessageTokens, estimateTextTokens } from './token-estimate';

/**
 * Fitting a conversation into a model's context window before each model call.
 *
 * What is left out: the oldest messages, never the system prompt, never the last user
 * message and the newest step after it, and never half of a step (an assistant message
 * with tool calls goes with the tool results that follow it). Earlier turns go whole, so
 * what remains still starts with a user message; within the last turn — a sub-agent's
 * 100-step run is one turn — the oldest steps go one by one. A sub-agent also keeps its
 * task (its first user message). Older messages are dropped, not summarised: a summary
 * would be one more model call before every overflowing step, with its own cost, latency
 * and failure, and a long run would summarise summaries.
 */

/** Told to the model once something was left out, so it does not take the gap for the whole story. */
export const TRIMMED_SYSTEM_NOTE = 'Earlier messages of this conversation were left out to fit your context window; only the most recent ones follow.';

/** Room kept for the answer when the caller sets no output cap: at most 4,096 tokens, a quarter of a small window. */
export function outputReserve(contextWindow: number, maxOutputTokens?: number): number {
  return maxOutputTokens ?? Math.min(4_096, Math.floor(contextWindow / 4));
}

/** Our estimate is a guess: a tenth of the window stays free for what it misses. */
const SAFETY = 0.9;
/** A provider-reported count at most this many times our estimate is believed (a larger gap is some other error). */
const MAX_CORRECTION = 4;

interface Unit {
  messages: ModelMessage[];
  tokens: number;
}

/** Messages in units that are kept or left out together: a user message, or an assistant message with the tool messages after it. */
function unitsOf(messages: readonly ModelMessage[], estimate: (m: ModelMessage) => number): Unit[] {
  const units: Unit[] = [];
  for (const message of messages) {
    const last = units.at(-1);
    if (message.role === 'tool' && last) {
      last.messages.push(message);
      last.tokens += estimate(message);
    } else units.push({ messages: [message], tokens: estimate(message) });
  }
  return units;
}

export interface FitResult {
  messages: ModelMessage[];
  /** How many messages were left out. */
  dropped: number;
  /** The estimate of what is sent. */
  tokens: number;
}

/**
 * `messages` reduced to at most `budget` estimated tokens as described above. When even
 * the messages that must stay are over budget, they are sent anyway: the provider's
 * refusal then says so (see model-errors.ts).
 */
export function fitMessages(
  messages: readonly ModelMessage[],
  budget: number,
  options: { keepFirstUsers?: number; estimate?: (m: ModelMessage) => number } = {},
): FitResult {
  const units = unitsOf(messages, options.estimate ?? estimateMessageTokens);
  let total = units.reduce((sum, u) => sum + u.tokens, 0);
  if (total <= budget) return { messages: [...messages], dropped: 0, tokens: total };
  const lastUser = units.findLastIndex((u) => u.messages[0]!.role === 'user');
  // The first user messages asked to stay (a sub-agent's context and task) are kept in place, so they stay the first ones.
  const leading = new Set(
    units
      .map((u, i) => (u.messages[0]!.role === 'user' ? i : -1))
      .filter((i) => i >= 0)
      .slice(0, options.keepFirstUsers ?? 0),
  );
  const pinned = (i: number) => i === units.length - 1 || i === lastUser || units[i]!.messages[0]!.role === 'system' || leading.has(i);
  const dropped = new Set<number>();
  const drop = (i: number) => {
    dropped.add(i);
    total -= units[i]!.tokens;
  };
  for (let i = 0; i < units.length && total > budget; i++) {
    if (pinned(i) || dropped.has(i)) continue;
    drop(i);
    // A user message of an earlier turn goes with its answer: what stays starts with a user message.
    if (i < lastUser && units[i]!.messages[0]!.role === 'user') {
      for (let j = i + 1; j < lastUser && units[j]!.messages[0]!.role !== 'user'; j++) if (!pinned(j)) drop(j);
    }
  }
  const kept = units.filter((_, i) => !dropped.has(i)).flatMap((u) => u.messages);
  return { messages: kept, dropped: messages.length - kept.length, tokens: total };
}

/**
 * The end of `text` within about `maxTokens`, for text that must fit whatever the
 * conversation around it (a sub-agent's delegated context, the conversation to summarise):
 * its most recent part is what matters most.
 */
export function lastTokensOf(text: string, maxTokens: number): string {
  if (estimateTextTokens(text) <= maxTokens) return text;
  // The longest end that fits, with room for the ellipsis.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTextTokens(text.slice(text.length - mid)) <= maxTokens - 1) lo = mid;
    else hi = mid - 1;
  }
  let cut = text.slice(text.length - lo);
  // Never start with the second half of a surrogate pair.
  if (/^[\uDC00-\uDFFF]/.test(cut)) cut = cut.slice(1);
  return `…${cut}`;
}

/** Tokens the tool definitions add to every call (names, descriptions, input schemas). */
export async function estimateToolTokens(tools: ToolSet): Promise<number> {
  let tokens = 0;
  for (const [name, tool] of Object.entries(tools)) {
    const schema = tool.inputSchema ? await asSchema(tool.inputSchema).jsonSchema : {};
    tokens += estimateTextTokens(`${name} ${tool.description ?? ''} ${JSON.stringify(schema)}`) + 10;
  }
  return tokens;
}

export interface ContextFitterOptions {
  contextWindow: number;
  maxOutputTokens?: number;
  system: string;
  toolTokens: number;
  /** How many of the first user messages stay: a sub-agent's task (and the context before it). */
  keepFirstUsers: number;
}

/**
 * The fitting of one turn, step by step (the AI SDK's `prepareStep`): each step's messages
 * are fitted again, so a long sub-agent run trims as it grows. The SDK carries a returned
 * message list forward, so what was left out stays out; `trimmed` says how much in all.
 */
export function contextFitter(options: ContextFitterOptions) {
  const { contextWindow, system } = options;
  let leftOut = 0;
  let trimmed: ContextTrimmed | undefined;
  let noticed: ContextTrimmed | undefined;
  // Provider-reported prompt tokens over our estimate of the same request, once known.
  let correction = 1;
  let lastEstimate: number | undefined;
  const systemWith = (note: boolean) => (note ? `${system}\n\n${TRIMMED_SYSTEM_NOTE}` : system);

  const fitNow = (messages: readonly ModelMessage[]) => {
    const fixed = estimateTextTokens(systemWith(true)) + options.toolTokens;
    const budget = Math.floor(((contextWindow - outputReserve(contextWindow, options.maxOutputTokens)) * SAFETY) / correction) - fixed;
    const result = fitMessages(messages, budget, { keepFirstUsers: options.keepFirstUsers });
    lastEstimate = result.tokens + fixed;
    return result;
  };

  return {
    contextWindow,
    /** What the chat shows: set once something was left out. */
    get trimmed() {
      return trimmed;
    },
    /** Message metadata for the chat when what was left out changed since the last notice. */
    takeNotice(): { contextTrimmed: ContextTrimmed } | undefined {
      if (!trimmed || trimmed === noticed) return undefined;
      noticed = trimmed;
      return { contextTrimmed: trimmed };
    },
    /** For `prepareStep`: the step's messages, fitted (undefined when nothing needs to change). */
    prepareStep({ messages, steps }: { messages: ModelMessage[]; steps: readonly { usage: { inputTokens: number | undefined } }[] }) {
      const reported = steps.at(-1)?.usage.inputTokens;
      if (reported && lastEstimate) correction = Math.min(MAX_CORRECTION, Math.max(correction, reported / lastEstimate));
      const result = fitNow(messages);
      if (result.dropped === 0 && leftOut === 0) return undefined;
      leftOut += result.dropped;
      trimmed = { sentMessages: result.messages.length, totalMessages: result.messages.length + leftOut, contextWindow };
      return { messages: result.messages, instructions: systemWith(true) };
    },
    /** A one-off call on the same conversation (a sub-agent's partial result). */
    fitOnce(messages: ModelMessage[]) {
      const result = fitNow(messages);
      return { messages: result.messages, system: systemWith(result.dropped > 0) };
    },
  };
}

export type ContextFitter = ReturnType<typeof contextFitter>;
