import type { TokenUsage } from '@baton/schemas';
import type { LanguageModelMiddleware, LanguageModelUsage } from 'ai';
import { partStagesMiddleware, type ModelCallParams as Params, type ModelStreamPart as StreamPart, type PartStage } from './part-stages';

/*
 * Many local servers (llama.cpp, some Ollama and vLLM set-ups, proxies) report no usage.
 * Budgets, the usage roll-ups and the delegation tree all count tokens, so a model call
 * that reports none is counted here with a tokenizer instead, and marked as an estimate.
 *
 * gpt-tokenizer: pure JavaScript (no WASM, no native build, no download at run time), no
 * dependencies, maintained, and each encoding is its own module. Its o200k_base table
 * (GPT-4o / o-series) is a fair stand-in for other models' BPE vocabularies: an estimate,
 * which is what the `≈` in the UI says. The table costs ~0.4 s and ~70 MB to load, so it
 * is imported on the first call that needs it, never at start-up.
 */

type Tokenizer = { countTokens: (text: string) => number };
let tokenizer: Promise<Tokenizer> | undefined;
const loadTokenizer = () => {
  tokenizer ??= import('gpt-tokenizer/encoding/o200k_base').catch((err) => {
    tokenizer = undefined;
    throw err;
  });
  return tokenizer;
};

/** Tokens of `texts` by the tokenizer (exported for tests). */
export async function countTokens(texts: string[]): Promise<number> {
  const { countTokens } = await loadTokenizer();
  let n = 0;
  for (const text of texts) if (text) n += countTokens(text);
  return n;
}

/** What the chat format adds around each message (role, separators), as OpenAI's own count has it. */
const PER_MESSAGE_TOKENS = 4;

/** Where the marker of an estimate travels with the AI SDK's usage (its `raw` field reaches every step's usage). */
const MARKER = 'baton_estimated';

/** True when Baton estimated (some of) this usage because the provider reported none. */
export function isEstimatedUsage(usage: LanguageModelUsage | undefined): boolean {
  const raw = usage?.raw as Record<string, unknown> | undefined;
  return raw?.[MARKER] === true;
}

/** A model call's usage as Baton counts it (nothing reported counts as 0), marked when it is an estimate. */
export function tokenUsage(usage: LanguageModelUsage | undefined): TokenUsage {
  const counted: TokenUsage = { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
  if (isEstimatedUsage(usage)) counted.estimated = true;
  return counted;
}

const json = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

type Usage = Extract<StreamPart, { type: 'finish' }>['usage'];

/** The texts a provider would count as the prompt: every message's content and the tools offered. */
function promptTexts(params: Params): string[] {
  const texts: string[] = [];
  for (const message of params.prompt) {
    if (typeof message.content === 'string') {
      texts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') texts.push(part.text);
      else if (part.type === 'tool-call') texts.push(part.toolName, json(part.input));
      else if (part.type === 'tool-result') texts.push(json(part.output));
    }
  }
  for (const tool of params.tools ?? []) texts.push(json(tool));
  return texts;
}

/** The call's usage with whatever the provider left out counted from the prompt and the streamed output. */
async function filledIn(usage: Usage, params: Params, output: string[]): Promise<Usage> {
  const inputMissing = usage.inputTokens.total === undefined;
  const outputMissing = usage.outputTokens.total === undefined;
  const input = inputMissing ? (await countTokens(promptTexts(params))) + PER_MESSAGE_TOKENS * params.prompt.length : usage.inputTokens.total;
  // Counted as one text: a word streamed in pieces is still the one token it would be whole.
  const outputTokens = outputMissing ? await countTokens([output.join('')]) : usage.outputTokens.total;
  return {
    inputTokens: inputMissing ? { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined } : usage.inputTokens,
    outputTokens: outputMissing ? { total: outputTokens, text: undefined, reasoning: undefined } : usage.outputTokens,
    raw: { ...(usage.raw ?? {}), [MARKER]: true },
  };
}

/**
 * Fills in a streamed call's usage when the provider reported none (input, output, or
 * both), counting the prompt and what was streamed; marks it (isEstimatedUsage). Usage a
 * provider did report is passed on untouched.
 */
export const usageEstimateMiddleware: LanguageModelMiddleware = {
  wrapGenerate: async ({ doGenerate, params }) => {
    const result = await doGenerate();
    if (result.usage.inputTokens.total !== undefined && result.usage.outputTokens.total !== undefined) return result;
    const output = result.content.flatMap((part) =>
      part.type === 'text' || part.type === 'reasoning' ? [part.text] : part.type === 'tool-call' ? [part.toolName, part.input] : [],
    );
    try {
      return { ...result, usage: await filledIn(result.usage, params, output) };
    } catch {
      return result;
    }
  },
  ...partStagesMiddleware([usageEstimate]),
};

/** One streamed call's stage of usageEstimateMiddleware: collects what is streamed, and fills in the finish's usage. */
export function usageEstimate(params: Params): PartStage {
  const output: string[] = [];
  return (part) => {
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') output.push(part.delta);
    else if (part.type === 'tool-call') output.push(part.toolName, part.input);
    else if (part.type === 'finish' && (part.usage.inputTokens.total === undefined || part.usage.outputTokens.total === undefined)) {
      // No tokenizer (it failed to load): the call counts as the provider reported it.
      return filledIn(part.usage, params, output).then(
        (usage) => ({ ...part, usage }),
        () => part,
      );
    }
    return part;
  };
}
