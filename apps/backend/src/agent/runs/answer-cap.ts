import { cutText, type RunErrorData, type BatonUIMessage, type BatonUIMessageChunk } from '@baton/schemas';

type Delta = Extract<BatonUIMessageChunk, { type: 'text-delta' | 'reasoning-delta' }>;

/** The stored note of an answer cut at the limit (shown in its place in the chat). */
export function answerCutError(maxChars: number): RunErrorData {
  return {
    code: 'too_long',
    message: `The answer was cut here: an answer may hold at most ${maxChars.toLocaleString('en-US')} characters of text on this server. What came before is kept.`,
  };
}

const textLength = (message: BatonUIMessage | undefined) =>
  (message?.parts ?? []).reduce((n, p) => n + (p.type === 'text' || p.type === 'reasoning' ? p.text.length : 0), 0);

/**
 * The cap on one answer's text and reasoning (BATON_MAX_ANSWER_CHARS), counted across its
 * steps and runs (a continuation starts from what the message holds). The delta that
 * reaches the cap is cut to fit, its part is closed, and the run stops reading the model:
 * a 50 MB answer was stored, and sent again with every read of its chat.
 */
export class AnswerCap {
  private used: number;

  constructor(
    readonly maxChars: number,
    continued: BatonUIMessage | undefined,
  ) {
    this.used = textLength(continued);
  }

  /**
   * The chunks to relay for this one: itself while under the cap; at the cap, the part of a
   * delta that fits and its part's end, with `cut` set — the run then stops reading.
   */
  admit(chunk: BatonUIMessageChunk): { chunks: BatonUIMessageChunk[]; cut: boolean } {
    if (chunk.type !== 'text-delta' && chunk.type !== 'reasoning-delta') return { chunks: [chunk], cut: false };
    const room = this.maxChars - this.used;
    if (chunk.delta.length <= room) {
      this.used += chunk.delta.length;
      return { chunks: [chunk], cut: false };
    }
    const fitting = cutText(chunk.delta, room);
    this.used += fitting.length;
    const end: BatonUIMessageChunk = { type: chunk.type === 'text-delta' ? 'text-end' : 'reasoning-end', id: chunk.id };
    return { chunks: fitting ? [{ ...chunk, delta: fitting } as Delta, end] : [end], cut: true };
  }
}
