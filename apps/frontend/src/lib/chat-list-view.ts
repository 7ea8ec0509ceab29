'use client';

import type { ChatSource } from '@baton/schemas';
import { useSyncExternalStore } from 'react';

/*
 * Whether the sidebar hides the chats programs started with an API key (`source: "api"`):
 * a choice of this browser, remembered in localStorage and shared by its tabs.
 */

const KEY = 'baton:hide-api-chats';
const listeners = new Set<() => void>();

function readHidden(): boolean {
  try {
    return window.localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function setApiChatsHidden(hidden: boolean): void {
  try {
    window.localStorage.setItem(KEY, hidden ? 'on' : 'off');
  } catch {
    // Not remembered (private mode): this page still switches.
  }
  for (const listener of listeners) listener();
}

/** The list's source filter: undefined lists every chat. The server render lists all (no storage there). */
export function useChatListSource(): ChatSource | undefined {
  return useSyncExternalStore(subscribe, readHidden, () => false) ? 'app' : undefined;
}
