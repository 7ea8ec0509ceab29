import type { Message } from '@baton/schemas';
import type { UIMessage } from 'ai';

/** Stored messages (API shape) as the UI messages the AI SDK's Chat works with. */
export function toUIMessages(stored: Message[]): UIMessage[] {
  return stored
    .filter((m) => m.role !== 'system')
    .map((m) => ({
      id: m.id,
      role: m.role,
      // The backend stores exactly the parts the AI SDK produced, so they are UI parts.
      parts: m.parts as unknown as UIMessage['parts'],
      ...(m.metadata ? { metadata: m.metadata } : {}),
    }));
}
