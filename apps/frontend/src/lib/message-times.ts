import type { Message } from '@baton/schemas';

/**
 * When each message was written, by id: stored messages bring their `createdAt`; a message
 * this tab streams itself has none until it is reloaded, so it is dated when first shown.
 */
const times = new Map<string, string>();

export function rememberMessageTimes(stored: readonly Pick<Message, 'id' | 'createdAt'>[]): void {
  for (const m of stored) times.set(m.id, m.createdAt);
}

export function messageTime(id: string): string {
  let at = times.get(id);
  if (!at) {
    at = new Date().toISOString();
    times.set(id, at);
  }
  return at;
}
