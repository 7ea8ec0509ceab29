import type { ModelMessage } from 'ai';

/**
 * Baton's token estimate, kept in this one file so a real tokenizer can replace it.
 *
 * Counting is deliberately cheap and errs high: about 4 characters per token for ASCII
 * (English prose and code run 3.5–4.5 with the GPT and Llama tokenizers), and one token
 * per character beyond ASCII (CJK text is about one token per character; accented Latin
 * letters cost less, so such text is overestimated — the safe side). Provider-reported
 * prompt tokens correct it as a run goes on (see context-fit.ts).
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/** Role markers and separators that chat templates add around each message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * An image or file part, whatever its size: its bytes are not text, and counting them as
 * JSON would make one screenshot look like a book. About what a 2048 px image costs with
 * OpenAI's high detail (a PDF's real cost depends on its pages; the provider's count corrects it).
 */
export const MEDIA_PART_TOKENS = 1_600;

/** One model message: its content as the provider receives it (JSON for tool calls and results), plus its overhead. */
export function estimateMessageTokens(message: ModelMessage): number {
  if (typeof message.content === 'string') return estimateTextTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
  let media = 0;
  const rest = message.content.filter((part) => {
    const isMedia = part.type === 'image' || (part.type === 'file' && !(typeof part.data === 'object' && 'type' in part.data && part.data.type === 'text'));
    if (isMedia) media += MEDIA_PART_TOKENS;
    return !isMedia;
  });
  return estimateTextTokens(JSON.stringify(rest)) + media + MESSAGE_OVERHEAD_TOKENS;
}
