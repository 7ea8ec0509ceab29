/*
 * The sub-chats this tab started (sent the task of), for the tab's lifetime: sessionStorage
 * survives a reload, and every other tab has its own. The tab that started a sub-chat hands
 * its result to the parent; another tab showing the same delegation leaves that to it.
 */

const KEY = 'baton:sub-chats-started-here';
/** Enough for any session; the oldest are dropped first. */
const LIMIT = 200;
/** Where storage is unavailable (disabled, full), this page's memory still knows. */
const inMemory = new Set<string>();

function stored(): string[] {
  try {
    const ids: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function store(ids: string[]) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(ids.slice(-LIMIT)));
  } catch {
    // Memory alone then: a reload forgets, and this tab waits for the other tabs like any other.
  }
}

export function rememberStartedHere(subChatId: string): void {
  inMemory.add(subChatId);
  store([...stored().filter((id) => id !== subChatId), subChatId]);
}

/** The server refused this tab's start: another tab started the sub-chat first. */
export function forgetStartedHere(subChatId: string): void {
  inMemory.delete(subChatId);
  store(stored().filter((id) => id !== subChatId));
}

export function startedHere(subChatId: string): boolean {
  return inMemory.has(subChatId) || stored().includes(subChatId);
}
