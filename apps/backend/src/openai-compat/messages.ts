import { SYSTEM_MESSAGE_PREFIX, type OpenAiMessage, type BatonUIMessage } from '@baton/schemas';
import { generateMessageId } from '../ids';
import { invalidBody } from './errors';

/** A message's text: a string as it is, text parts joined with a line break. */
export function contentText(content: OpenAiMessage['content']): string {
  if (content === undefined || content === null) return '';
  return typeof content === 'string' ? content : content.map((p) => p.text).join('\n');
}

/**
 * OpenAI messages as the chat's stored messages. A chat holds only user and assistant
 * messages, so a `system` / `developer` message is kept as a user message in its place,
 * its text prefixed with "System: " — the agent's own system prompt stays first, and the
 * caller's instructions remain visible in the chat. An assistant message without text is
 * left out (there is nothing to store).
 */
function toUiMessages(messages: OpenAiMessage[], offset: number): BatonUIMessage[] {
  const out: BatonUIMessage[] = [];
  messages.forEach((m, i) => {
    const text = contentText(m.content);
    if (m.role === 'assistant') {
      if (text.trim()) out.push({ id: generateMessageId(), role: 'assistant', parts: [{ type: 'text', text }] });
      return;
    }
    if (!text.trim()) throw invalidBody(`messages[${offset + i}].content: must not be empty`, `messages[${offset + i}].content`);
    const stored = m.role === 'user' ? text : `${SYSTEM_MESSAGE_PREFIX}${text}`;
    out.push({ id: generateMessageId(), role: 'user', parts: [{ type: 'text', text: stored }] });
  });
  return out;
}

function requireUserLast(messages: OpenAiMessage[]) {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw invalidBody(
      `messages[${messages.length - 1}]: the last message must be a user message (the agent answers it)`,
      `messages[${messages.length - 1}].role`,
    );
  }
}

/** Without `X-Baton-Chat-Id`: the messages are the whole conversation of a new chat. */
export function newChatMessages(messages: OpenAiMessage[]): BatonUIMessage[] {
  requireUserLast(messages);
  return toUiMessages(messages, 0);
}

/**
 * With `X-Baton-Chat-Id`: the chat has its history, so only what follows the request's
 * last assistant message is new (all of it when there is none) — a client that resends
 * the whole conversation, as OpenAI clients do, appends just its newest turn.
 */
export function continuationMessages(messages: OpenAiMessage[]): BatonUIMessage[] {
  requireUserLast(messages);
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return toUiMessages(messages.slice(lastAssistant + 1), lastAssistant + 1);
}

/** The text a new chat is titled from: its first user message's (a request always has one: the last). */
export function titleText(messages: OpenAiMessage[]): string {
  return contentText(messages.find((m) => m.role === 'user')?.content);
}
