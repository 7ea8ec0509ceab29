'use client';

import { create } from 'zustand';

/**
 * What the delegation viewer (one dialog for the whole app) shows: a sub-chat's transcript
 * or a chat's delegation trace. Opening something from inside the viewer pushes it, so
 * Back returns to where the person came from (a trace node → its sub-chat → Back).
 */
export type ViewerPage = { kind: 'sub-chat'; chatId: string } | { kind: 'trace'; chatId: string };

interface ViewerState {
  workspaceId: string | null;
  pages: ViewerPage[];
  /** Opens the viewer on `page`; from inside the viewer (`push`), Back returns to the current page. */
  open: (workspaceId: string, page: ViewerPage, opts?: { push?: boolean }) => void;
  back: () => void;
  close: () => void;
}

export const useDelegationViewer = create<ViewerState>()((set, get) => ({
  workspaceId: null,
  pages: [],
  open: (workspaceId, page, { push = false } = {}) => set({ workspaceId, pages: push && get().pages.length ? [...get().pages, page] : [page] }),
  back: () => set({ pages: get().pages.slice(0, -1) }),
  close: () => set({ pages: [] }),
}));

export function openSubChat(workspaceId: string, chatId: string) {
  const { pages, open } = useDelegationViewer.getState();
  open(workspaceId, { kind: 'sub-chat', chatId }, { push: pages.length > 0 });
}

export function openTrace(workspaceId: string, chatId: string) {
  const { pages, open } = useDelegationViewer.getState();
  open(workspaceId, { kind: 'trace', chatId }, { push: pages.length > 0 });
}
