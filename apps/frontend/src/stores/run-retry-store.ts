import type { RunRetryData } from '@baton/schemas';
import { create } from 'zustand';
import type { RetryNotice } from '@/lib/retry-notice';

/**
 * Chats whose model provider failed and is being asked again right now (the transient
 * `data-run-retry` parts of their stream); cleared when the answer ends.
 */
interface RunRetryState {
  byChat: Record<string, RetryNotice | undefined>;
  set: (chatId: string, data: RunRetryData) => void;
  clear: (chatId: string) => void;
}

export const useRunRetry = create<RunRetryState>((set) => ({
  byChat: {},
  // The wait counts from now, on this clock (the server's may differ).
  set: (chatId, data) => set((s) => ({ byChat: { ...s.byChat, [chatId]: { ...data, receivedAt: Date.now() } } })),
  clear: (chatId) => set((s) => (s.byChat[chatId] ? { byChat: { ...s.byChat, [chatId]: undefined } } : s)),
}));

export const useChatRetry = (chatId: string) => useRunRetry((s) => s.byChat[chatId]);
