'use client';

import type { Chat } from '@baton/schemas';
import { toast } from 'sonner';
import { ApiError, api } from './api-client';
import { hideChats, restoreChats } from './chat-list';

/*
 * Deleting chats with Undo. The chats leave the list at once, and the DELETE requests go out
 * only when the toast that offers Undo closes (by its timer, its close button or a swipe),
 * or when the page goes away (`pagehide`, with `keepalive` requests that outlive it). Undo
 * puts them back untouched: nothing was sent. A tab that dies without `pagehide` deletes
 * nothing — the safe way to fail for a permanent action.
 */

/** How long Undo is offered (the toast's timer pauses while it is hovered or the tab is hidden). */
export const UNDO_DELETE_MS = 8000;
/** Requests in flight at once when several chats are deleted. */
const PARALLEL_DELETES = 4;

interface PendingDeletion {
  workspaceId: string;
  chats: Chat[];
  state: 'pending' | 'sending' | 'undone';
}

const pending = new Set<PendingDeletion>();

const chatUrl = (workspaceId: string, chatId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/chats/${encodeURIComponent(chatId)}`;

/**
 * Deletes `chats` after an Undo window. `onDeleted` runs with the chats that are really gone
 * (failures are put back and reported).
 */
export function deleteChatsWithUndo(workspaceId: string, chats: Chat[], onDeleted?: (ids: string[]) => void): void {
  if (chats.length === 0) return;
  const deletion: PendingDeletion = { workspaceId, chats, state: 'pending' };
  pending.add(deletion);
  listenForPageHide();
  hideChats(
    workspaceId,
    chats.map((c) => c.id),
  );
  const what = chats.length === 1 ? `“${chats[0]?.title.trim() || 'Untitled chat'}”` : `${chats.length} chats`;
  const send = () => void commit(deletion, onDeleted);
  toast(`Deleted ${what}`, {
    description: 'Its sub-agent chats go with it.',
    duration: UNDO_DELETE_MS,
    action: {
      label: 'Undo',
      onClick: () => {
        if (deletion.state !== 'pending') return;
        deletion.state = 'undone';
        pending.delete(deletion);
        restoreChats(workspaceId, chats);
      },
    },
    onAutoClose: send,
    onDismiss: send,
  });
}

async function commit(deletion: PendingDeletion, onDeleted?: (ids: string[]) => void): Promise<void> {
  if (deletion.state !== 'pending') return;
  deletion.state = 'sending';
  pending.delete(deletion);
  const failed: Chat[] = [];
  const queue = [...deletion.chats];
  const worker = async () => {
    for (let chat = queue.shift(); chat; chat = queue.shift()) {
      try {
        await api.chats.remove(deletion.workspaceId, chat.id);
      } catch (err) {
        // Already gone (another tab, another person) is what was asked for.
        if (!(err instanceof ApiError && err.status === 404)) failed.push(chat);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, queue.length) }, worker));
  const failedIds = new Set(failed.map((c) => c.id));
  onDeleted?.(deletion.chats.filter((c) => !failedIds.has(c.id)).map((c) => c.id));
  if (failed.length > 0) {
    restoreChats(deletion.workspaceId, failed);
    toast.error(
      failed.length === 1
        ? `“${failed[0]?.title || 'Untitled chat'}” could not be deleted; it is back in the list.`
        : `${failed.length} chats could not be deleted; they are back in the list.`,
    );
  }
}

let listening = false;

/** The page is going away with deletions still waiting: send them so they outlive it. */
function listenForPageHide() {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('pagehide', () => {
    for (const deletion of pending) {
      deletion.state = 'sending';
      for (const chat of deletion.chats) void fetch(chatUrl(deletion.workspaceId, chat.id), { method: 'DELETE', keepalive: true }).catch(() => {});
    }
    pending.clear();
  });
}
