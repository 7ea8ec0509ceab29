'use client';

import type { Chat } from '@baton/schemas';
import { create } from 'zustand';
import { api } from '@/lib/api-client';

export const CHAT_PAGE_SIZE = 30;

interface ChatListState {
  workspaceId: string | null;
  chats: Chat[];
  nextCursor: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  loadingMore: boolean;
  /** Loads the first page of a workspace's top-level chats (newest activity first). */
  load: (workspaceId: string) => Promise<void>;
  /** Appends the next page, if there is one. */
  loadMore: () => Promise<void>;
  rename: (chatId: string, title: string) => Promise<void>;
  remove: (chatId: string) => Promise<void>;
  /** Puts a chat (new or just active) at the top of the list. */
  touch: (chat: Chat) => void;
}

/** The sidebar's chat history, shared with every page that creates, renames or deletes chats. */
export const useChatList = create<ChatListState>()((set, get) => ({
  workspaceId: null,
  chats: [],
  nextCursor: null,
  status: 'idle',
  error: null,
  loadingMore: false,

  load: async (workspaceId) => {
    set({ workspaceId, status: 'loading', error: null, chats: get().workspaceId === workspaceId ? get().chats : [] });
    try {
      const page = await api.chats.list(workspaceId, { limit: CHAT_PAGE_SIZE });
      if (get().workspaceId !== workspaceId) return;
      set({ chats: page.data, nextCursor: page.nextCursor, status: 'ready' });
    } catch (err) {
      if (get().workspaceId !== workspaceId) return;
      set({ status: 'error', error: (err as Error).message });
    }
  },

  loadMore: async () => {
    const { workspaceId, nextCursor, loadingMore, status } = get();
    if (!workspaceId || !nextCursor || loadingMore || status !== 'ready') return;
    set({ loadingMore: true });
    try {
      const page = await api.chats.list(workspaceId, { limit: CHAT_PAGE_SIZE, cursor: nextCursor });
      if (get().workspaceId !== workspaceId) return;
      const known = new Set(get().chats.map((c) => c.id));
      set({ chats: [...get().chats, ...page.data.filter((c) => !known.has(c.id))], nextCursor: page.nextCursor });
    } catch (err) {
      set({ error: (err as Error).message });
    } finally {
      set({ loadingMore: false });
    }
  },

  rename: async (chatId, title) => {
    const { workspaceId } = get();
    if (!workspaceId) return;
    const updated = await api.chats.rename(workspaceId, chatId, title);
    set({ chats: get().chats.map((c) => (c.id === chatId ? { ...c, title: updated.title } : c)) });
  },

  remove: async (chatId) => {
    const { workspaceId } = get();
    if (!workspaceId) return;
    await api.chats.remove(workspaceId, chatId);
    set({ chats: get().chats.filter((c) => c.id !== chatId) });
  },

  touch: (chat) => {
    if (chat.parentChatId || chat.workspaceId !== get().workspaceId) return;
    set({ chats: [chat, ...get().chats.filter((c) => c.id !== chat.id)] });
  },
}));
