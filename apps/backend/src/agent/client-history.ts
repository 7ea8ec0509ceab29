import type { BatonUIMessage, EarlierMessageInput } from '@baton/schemas';
import { invalidRequest } from '../errors';

const textOf = (m: { parts: readonly { type: string; text?: unknown }[] }) =>
  m.parts.flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('\n');

/**
 * The messages a client sent before its newest one (the AI SDK's default transport sends
 * the whole list) must be the chat's stored messages before it: the same ids and roles in
 * the same order, a user message with the same text. The server keeps the history, so they
 * are only checked — a list that differs would be a rewrite of history the server would
 * otherwise ignore without a word. `newest` is the message the request is about: a new one
 * (after all stored ones), or a stored one that is continued, edited or answered again.
 */
export function assertEarlierMatch(history: readonly BatonUIMessage[], newestId: string, earlier: readonly EarlierMessageInput[] | undefined): void {
  if (!earlier) return;
  const at = history.findIndex((m) => m.id === newestId);
  const expected = at === -1 ? history : history.slice(0, at);
  if (earlier.length !== expected.length) {
    throw invalidRequest(
      `messages: ${earlier.length} message${earlier.length === 1 ? '' : 's'} before the newest, but the chat holds ${expected.length} before it; send the chat's stored messages (or only \`message\`)`,
    );
  }
  earlier.forEach((m, i) => {
    const stored = expected[i]!;
    if (m.id !== stored.id || m.role !== stored.role) {
      throw invalidRequest(`messages[${i}]: is not the chat's stored message "${stored.id}" (${stored.role}); history cannot be rewritten`);
    }
    if (m.role === 'user' && textOf(m) !== textOf(stored)) {
      throw invalidRequest(
        `messages[${i}]: its text differs from the stored message "${stored.id}"; history cannot be rewritten (edit the last user message instead)`,
      );
    }
  });
}
