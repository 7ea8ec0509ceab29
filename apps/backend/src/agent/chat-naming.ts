import { aiTelemetry } from '../ops/tracing';
import { cutText, titleFromText } from '@baton/schemas';
import { generateText } from 'ai';
import { logError } from '../error-text';
import { renameChatIfTitled } from '../services/chats-by-id';
import { defaultModel, type ModelDeps } from './models';

export const TITLE_REQUEST =
  'Write a short title, at most six words, for a conversation that starts with the message below. Answer with the title only: no quotes, no markdown, no full stop.';
const TITLE_TIMEOUT_MS = 15_000;
const FIRST_MESSAGE_CHARS = 4_000;
const QUOTES = /^["'“”‘’«»\s]+|["'“”‘’«».\s]+$/g;

/**
 * A model-written title for a new top-level chat, when the instance has a real default model
 * (OPENAI_API_KEY): the first line of the first message stays the title until the model's
 * arrives, and stays for good when the model fails, is slow, or the person renamed the chat
 * meanwhile. The demo model writes no titles: a scripted reply would be no better than the
 * first line. Runs beside the answer; never throws.
 */
export async function nameChatWithModel(deps: ModelDeps, chatId: string, firstMessage: string): Promise<void> {
  if (deps.defaultModel.kind !== 'openai') return;
  const derived = titleFromText(firstMessage);
  try {
    const { text } = await generateText({
      model: defaultModel(deps).model,
      system: TITLE_REQUEST,
      prompt: cutText(firstMessage, FIRST_MESSAGE_CHARS),
      maxOutputTokens: 30,
      // A title is not worth waiting for: one try, and the first line stays when it fails.
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
      telemetry: aiTelemetry('baton.chat_title'),
    });
    const title = titleFromText(text.replace(QUOTES, ''));
    if (title === titleFromText('')) return;
    await renameChatIfTitled(deps.db, chatId, derived, title);
  } catch (err) {
    logError('a model-written chat title failed (the first line stays the title)', err);
  }
}
