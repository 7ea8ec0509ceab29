'use client';

import type { BatonUIMessage } from '@baton/schemas';
import { readableText } from './message-parts';

/**
 * A system message of the chat: instructions an API caller (`/v1`) sent along with its
 * messages. The agent reads them after its own system prompt; here they are a quiet note in
 * their place, neither the person's bubble nor an answer.
 */
export function SystemNote({ message }: { message: BatonUIMessage }) {
  return (
    <li
      aria-label="Instructions"
      className="flex flex-col gap-1 border-l-2 border-neutral-300 pl-3 text-xs text-neutral-500 dark:border-neutral-700 dark:text-neutral-400"
    >
      <span className="font-medium uppercase tracking-wide">Instructions</span>
      <p className="whitespace-pre-wrap break-words">{readableText(message)}</p>
    </li>
  );
}
