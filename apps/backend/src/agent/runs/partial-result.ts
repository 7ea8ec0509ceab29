import type { BatonUIMessage, TokenUsage, BatonUIMessageChunk } from '@baton/schemas';
import type { Database } from '../../db/client';
import { logError } from '../../error-text';
import { findChatById } from '../../services/chats-by-id';
import type { ChatRow } from '../../services/chat-rows';
import { partialReason, partialResult, subChatEnd, type PartialReason, type RunEndFacts, type SubChatEnd } from '../sub-chat-end';
import type { RuntimeDeps, TurnObserver } from '../runtime-types';
import type { RunRow } from '../../services/runs';

export interface PartialAnswer {
  reason: PartialReason;
  text: string;
  usage: TokenUsage;
}

/**
 * A sub-agent that stopped on its budget, the step limit or an error (not on cancel or
 * interrupt) gets ONE more model call, without tools, asking for its result so far. Its
 * answer streams into the sub-chat's message (after its last step, not as a step), so the sub-chat shows what the
 * parent receives.
 */
export async function askForPartialResult(
  _deps: RuntimeDeps,
  at: {
    run: RunRow;
    chat: ChatRow;
    observer: TurnObserver;
    facts: RunEndFacts;
    message: BatonUIMessage | undefined;
    emit: (chunk: BatonUIMessageChunk) => void;
    signal: AbortSignal;
  },
): Promise<PartialAnswer | undefined> {
  const reason = partialReason(at.message, at.facts);
  const ask = at.observer.askForPartialResult;
  if (!reason || !ask || at.signal.aborted) return undefined;
  const id = `partial-${at.run.id}`;
  let text = '';
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  if (!at.message) at.emit({ type: 'start', messageId: at.run.messageId });
  // Not a step of the agent's loop: no `start-step`, so the steps its transcript shows (what
  // a delegation block counts) are the steps the run stores (what the tree shows).
  at.emit({ type: 'text-start', id });
  try {
    const answer = await ask(at.message ?? { id: at.run.messageId, role: 'assistant', parts: [] }, at.signal);
    // Handled before the stream is read: when the provider breaks off mid-stream the text
    // stream throws first, and a usage promise nobody awaits would reject unhandled, which
    // ends the whole process (src/index.ts). The tokens of a broken call are unknown.
    const counted = Promise.resolve(answer.usage).catch(() => undefined);
    for await (const delta of answer.textStream) {
      text += delta;
      at.emit({ type: 'text-delta', id, delta });
    }
    usage = (await counted) ?? usage;
  } catch (err) {
    // The partial result then says only what the notes hold.
    logError('a sub-agent’s partial result could not be asked for', err);
  }
  at.emit({ type: 'text-end', id });
  at.emit({ type: 'finish-step' });
  return { reason, text, usage };
}

/** The sub-chat's end: what it reported, or its partial result with its notes. */
export async function subChatEndOf(
  db: Database,
  chatId: string,
  message: BatonUIMessage | undefined,
  facts: RunEndFacts,
  partial: PartialAnswer | undefined,
): Promise<SubChatEnd> {
  if (!partial) return subChatEnd(message, facts);
  const row = await findChatById(db, chatId);
  return partialResult(partial.reason, partial.text, row?.notes ?? [], facts.error);
}
