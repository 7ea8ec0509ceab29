import type { BatonUIMessage, Message } from '@baton/schemas';
import { rememberMessageTimes } from './message-times';

/** Stored messages (API shape) as the UI messages the AI SDK's Chat works with. */
export function toUIMessages(stored: Message[]): BatonUIMessage[] {
  rememberMessageTimes(stored);
  return stored
    .filter((m) => m.role !== 'system')
    .map((m) => ({
      id: m.id,
      role: m.role,
      // The backend stores exactly the parts the AI SDK produced, so they are UI parts.
      parts: m.parts as unknown as BatonUIMessage['parts'],
      ...(m.metadata ? { metadata: m.metadata } : {}),
    }));
}
