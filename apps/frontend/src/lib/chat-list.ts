'use client';

import type { Chat, ChatSource, Page } from '@baton/schemas';
import { useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { api } from './api-client';
import { useChatListSource } from './chat-list-view';
import { queryKeys } from './queries';
import { getQueryClient } from './query-client';

/*
 * The sidebar's chat history: a workspace's top-level chats in pages of the query cache
 * (newest activity first), shared with every page that creates, renames or deletes chats.
 * What this tab changes is written into the cached pages (`touchChat`, rename, remove)
 * rather than read again. The sidebar may list one source only (chat-list-view.ts): each
 * filter has its pages under its own key, and a change reaches every one of them.
 */

export const CHAT_PAGE_SIZE = 30;

export type ChatPages = InfiniteData<Page<Chat>, unknown>;

const listOptions = (workspaceId: string, source: ChatSource | undefined) => ({
  queryKey: queryKeys.chatList(workspaceId, source ?? 'all'),
  queryFn: ({ pageParam }: { pageParam: unknown }) => api.chats.list(workspaceId, { limit: CHAT_PAGE_SIZE, cursor: pageParam as string | null, source }),
  initialPageParam: null as string | null,
  getNextPageParam: (last: Page<Chat>) => last.nextCursor,
  // Changes made here are written into the pages; the list is read again when the workspace opens (refreshChatList).
  staleTime: Infinity,
});

/** Every chat of the loaded pages, each once (a chat that moved up while paging is not listed twice). */
function flatten(data: ChatPages | undefined): Chat[] {
  if (!data) return [];
  const seen = new Set<string>();
  return data.pages.flatMap((page) => page.data).filter((c) => !seen.has(c.id) && Boolean(seen.add(c.id)));
}

/** The sidebar's list: chats, whether it loads or failed, and the next page on demand. */
export function useChatList(workspaceId: string) {
  const source = useChatListSource();
  const query = useInfiniteQuery(listOptions(workspaceId, source));
  return {
    source,
    chats: flatten(query.data),
    status: query.isPending ? (query.isFetching ? 'loading' : 'idle') : query.isError && !query.data ? 'error' : 'ready',
    error: query.error?.message ?? null,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    reload: () => void query.refetch(),
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
  } as const;
}

/**
 * The chat as the sidebar lists it (its title follows renames), if it is in the loaded pages.
 * It observes the list with the list's own options, only not fetching: an observer without
 * them would leave the cached query without its query function for the list's next read.
 */
export function useListedChat(workspaceId: string, chatId: string): Chat | undefined {
  const source = useChatListSource();
  return useInfiniteQuery({
    ...listOptions(workspaceId, source),
    enabled: false,
    select: (data: ChatPages) => flatten(data).find((c) => c.id === chatId),
  }).data;
}

/** Reads the first page again, for a workspace the shell opens. */
export function refreshChatList(workspaceId: string): void {
  const client = getQueryClient();
  // Not read yet: the list reads it when it mounts.
  const key = queryKeys.chatList(workspaceId);
  if (client.getQueriesData({ queryKey: key }).some(([, data]) => data)) void client.resetQueries({ queryKey: key });
}

/**
 * The cached pages after `change` to their chats (as one list, each chat once): the changed
 * list is laid back into the pages as loaded — later pages keep their sizes, the first takes
 * what is added or removed — since page boundaries only matter for the next cursor.
 */
export function changePages(data: ChatPages, change: (chats: Chat[]) => Chat[]): ChatPages {
  const [first, ...rest] = data.pages;
  if (!first) return data;
  const all = change(flatten(data));
  const restCount = rest.reduce((n, p) => n + p.data.length, 0);
  const firstCount = Math.max(0, all.length - restCount);
  const pages = [{ ...first, data: all.slice(0, firstCount) }];
  let at = firstCount;
  for (const page of rest) {
    pages.push({ ...page, data: all.slice(at, at + page.data.length) });
    at += page.data.length;
  }
  return { ...data, pages };
}

/** The source a cached list's key names (`all`: none). */
function sourceOf(key: QueryKey): ChatSource | undefined {
  const source = key[2];
  return source === 'app' || source === 'api' ? source : undefined;
}

/** Applies `change` to every cached list of the workspace, each keeping only chats of its source. */
function updatePages(workspaceId: string, change: (chats: Chat[]) => Chat[]) {
  const client = getQueryClient();
  for (const [key, data] of client.getQueriesData<ChatPages>({ queryKey: queryKeys.chatList(workspaceId) })) {
    if (!data) continue;
    const source = sourceOf(key);
    client.setQueryData<ChatPages>(
      key,
      changePages(data, (chats) => change(chats).filter((c) => !source || c.source === source)),
    );
  }
}

/** Puts a chat (new or just active) at the top of its workspace's list; sub-chats are never listed. */
export function touchChat(chat: Chat): void {
  // An archived chat stays in the archive while it is used (its page is open from there).
  if (chat.parentChatId || chat.archived) return;
  updatePages(chat.workspaceId, (chats) => [chat, ...chats.filter((c) => c.id !== chat.id)]);
}

/** A title the server changed (one the first message gave follows the version shown): the lists show it in place. */
export function retitleListedChat(workspaceId: string, chatId: string, title: string): void {
  updatePages(workspaceId, (chats) => chats.map((c) => (c.id === chatId && c.title !== title ? { ...c, title } : c)));
}

/** A chat the server changed (its agent, say), in place wherever it is listed. */
export function replaceListedChat(updated: Chat): void {
  updatePages(updated.workspaceId, (chats) => chats.map((c) => (c.id === updated.id ? updated : c)));
}

export async function renameChat(workspaceId: string, chatId: string, title: string): Promise<void> {
  const updated = await api.chats.rename(workspaceId, chatId, title);
  updatePages(workspaceId, (chats) => chats.map((c) => (c.id === chatId ? { ...c, title: updated.title } : c)));
}

export async function removeChat(workspaceId: string, chatId: string): Promise<void> {
  await api.chats.remove(workspaceId, chatId);
  hideChats(workspaceId, [chatId]);
}

/** Takes chats out of the list (and the Archived page) without a request: a deletion waiting for its undo. */
export function hideChats(workspaceId: string, chatIds: readonly string[]): void {
  const gone = new Set(chatIds);
  updatePages(workspaceId, (chats) => chats.filter((c) => !gone.has(c.id)));
  void getQueryClient().invalidateQueries({ queryKey: queryKeys.archivedChats(workspaceId) });
}

/** Puts hidden chats back where their last activity places them (the list's order). */
export function restoreChats(workspaceId: string, restored: readonly Chat[]): void {
  const listed = restored.filter((c) => !c.archived && !c.parentChatId);
  const ids = new Set(listed.map((c) => c.id));
  updatePages(workspaceId, (chats) => [...chats.filter((c) => !ids.has(c.id)), ...listed].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)));
  void getQueryClient().invalidateQueries({ queryKey: queryKeys.archivedChats(workspaceId) });
}

/** Pins or unpins a chat: the list shows pinned chats first (pinnedFirst). */
export async function pinChat(workspaceId: string, chatId: string, pinned: boolean): Promise<Chat> {
  const updated = await api.chats.file(workspaceId, chatId, { pinned });
  const wasArchived = !listedChat(workspaceId, chatId);
  updatePages(workspaceId, (chats) => (wasArchived ? [updated, ...chats] : chats.map((c) => (c.id === chatId ? updated : c))));
  if (wasArchived) void getQueryClient().invalidateQueries({ queryKey: queryKeys.archivedChats(workspaceId) });
  return updated;
}

/** Archives a chat (out of the list, into the Archived page) or brings it back. */
export async function archiveChat(workspaceId: string, chat: Chat, archived: boolean): Promise<Chat> {
  const updated = await api.chats.file(workspaceId, chat.id, { archived });
  updatePages(workspaceId, (chats) => (archived ? chats.filter((c) => c.id !== chat.id) : [updated, ...chats.filter((c) => c.id !== chat.id)]));
  void getQueryClient().invalidateQueries({ queryKey: queryKeys.archivedChats(workspaceId) });
  return updated;
}

/** Pinned chats first, each part in the order it came (most recently active first). */
export function pinnedFirst(chats: Chat[]): Chat[] {
  return [...chats.filter((c) => c.pinned), ...chats.filter((c) => !c.pinned)];
}

export type ChatGroupName = 'Pinned' | 'Today' | 'Yesterday' | 'Previous 7 days' | 'Previous 30 days' | 'Older';

/** The list's sections: pinned chats, then by the day of their last activity in the person's time zone. */
export function groupChats(chats: Chat[], now: Date = new Date()): { name: ChatGroupName; chats: Chat[] }[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const day = 24 * 60 * 60 * 1000;
  const groupOf = (chat: Chat): ChatGroupName => {
    if (chat.pinned) return 'Pinned';
    const at = new Date(chat.updatedAt).getTime();
    if (at >= startOfToday) return 'Today';
    if (at >= startOfToday - day) return 'Yesterday';
    if (at >= startOfToday - 7 * day) return 'Previous 7 days';
    if (at >= startOfToday - 30 * day) return 'Previous 30 days';
    return 'Older';
  };
  const groups: { name: ChatGroupName; chats: Chat[] }[] = [];
  for (const chat of pinnedFirst(chats)) {
    const name = groupOf(chat);
    const last = groups.at(-1);
    if (last?.name === name) last.chats.push(chat);
    else groups.push({ name, chats: [chat] });
  }
  return groups;
}

/** The listed copy of a chat, read outside React (no request). */
export function listedChat(workspaceId: string, chatId: string): Chat | undefined {
  for (const [, data] of getQueryClient().getQueriesData<ChatPages>({ queryKey: queryKeys.chatList(workspaceId) })) {
    const found = flatten(data).find((c) => c.id === chatId);
    if (found) return found;
  }
  return undefined;
}

/** The chats as the sidebar shows them (pinned first, then by activity), read outside React. */
export function listedChatsInOrder(workspaceId: string, source: ChatSource | undefined): Chat[] {
  return pinnedFirst(flatten(getQueryClient().getQueryData<ChatPages>(listOptions(workspaceId, source).queryKey)));
}
