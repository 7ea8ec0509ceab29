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
      parts: m.parts,
      ...(m.metadata ? { metadata: m.metadata } : {}),
    }));
}
