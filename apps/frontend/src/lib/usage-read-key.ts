import { hasOutputOrError, isToolCallPart } from '@baton/delegation';
import { readMessageMetadata, type BatonUIMessage } from '@baton/schemas';

/**
 * When the chat header reads the chat's usage again: a key that changes whenever an answer
 * has ended — a new one (the count of answers), or the last one written again without this
 * tab streaming it (a retried delegation's continuation, a followed run, a reload of the
 * messages: its id, parts, calls' outputs or tokens change) — and is null while an answer
 * streams (its tokens are not stored yet).
 */
export function usageReadKey(messages: BatonUIMessage[], settled: boolean): string | null {
  if (!settled) return null;
  const answers = messages.filter((m) => m.role === 'assistant');
  const last = answers.at(-1);
  if (!last) return '0';
  let outputs = 0;
  for (const p of last.parts) if (isToolCallPart(p) && hasOutputOrError(p)) outputs++;
  const total = readMessageMetadata(last.metadata).usage?.total;
  return `${answers.length}:${last.id}:${last.parts.length}:${outputs}:${total ? total.inputTokens + total.outputTokens : 0}`;
}
