import type { BatonUIMessage, Message } from '@baton/schemas';
import { rememberMessageTimes } from './message-times';

/**
 * Stored messages (API shape) as the UI messages the AI SDK's Chat works with. System
 * messages (an API caller's instructions) stay: the transcript shows them as notes.
 */
export function toUIMessages<M extends Pick<Message, 'id' | 'role' | 'parts' | 'metadata' | 'createdAt'>>(stored: readonly M[]): BatonUIMessage[] {
  rememberMessageTimes(stored);
  return stored.map((m) => ({
    id: m.id,
    role: m.role,
    parts: m.parts,
    ...(m.metadata ? { metadata: m.metadata } : {}),
  }));
}
