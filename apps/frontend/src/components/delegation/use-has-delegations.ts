'use client';

import type { Chat } from '@ai-sdk/react';
import { isNewTaskPart } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';
import { useCallback, useSyncExternalStore } from 'react';

const delegates = (messages: readonly BatonUIMessage[]) =>
  messages.some((m) => m.role === 'assistant' && m.parts.some((p) => isNewTaskPart(p) && p.state !== 'input-streaming'));

/**
 * Whether the chat has delegated anything (a `newTask` call in its answers), followed live:
 * the chat header offers the delegation tree only then, from the first call on.
 */
export function useHasDelegations(session: Chat<BatonUIMessage>): boolean {
  const subscribe = useCallback((onChange: () => void) => session['~registerMessagesCallback'](onChange, 500), [session]);
  return useSyncExternalStore(
    subscribe,
    () => delegates(session.messages),
    () => false,
  );
}
