'use client';

import type { Chat } from '@baton/schemas';
import { Archive, Trash2, X } from 'lucide-react';
import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { deleteChatsWithUndo } from '@/lib/chat-deletion';
import { archiveChat, groupChats } from '@/lib/chat-list';

export interface ChatSelectionState {
  active: boolean;
  setActive: (active: boolean) => void;
  ids: ReadonlySet<string>;
  /** The selected chats, in the list's order. */
  chosen: Chat[];
  toggle: (chatId: string, range: boolean) => void;
  selectAll: () => void;
  clear: () => void;
}

/**
 * Several chats picked at once, in the list's order (pinned first, then by activity), so a
 * Shift-click selects what the person sees between two rows. Chats that leave the list
 * (deleted elsewhere, archived) leave the selection.
 */
export function useChatSelection(chats: Chat[]): ChatSelectionState {
  const [active, setActiveState] = useState(false);
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  const ordered = useMemo(() => groupChats(chats).flatMap((g) => g.chats), [chats]);

  useEffect(() => {
    setIds((current) => {
      const listed = new Set(chats.map((c) => c.id));
      const kept = [...current].filter((id) => listed.has(id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [chats]);

  const clear = useCallback(() => {
    setIds(new Set());
    anchor.current = null;
  }, []);

  const setActive = useCallback(
    (next: boolean) => {
      setActiveState(next);
      if (!next) clear();
    },
    [clear],
  );

  const toggle = useCallback(
    (chatId: string, range: boolean) => {
      const from = anchor.current ? ordered.findIndex((c) => c.id === anchor.current) : -1;
      const to = ordered.findIndex((c) => c.id === chatId);
      setIds((current) => {
        const next = new Set(current);
        if (range && from >= 0 && to >= 0) {
          for (const chat of ordered.slice(Math.min(from, to), Math.max(from, to) + 1)) next.add(chat.id);
        } else if (next.has(chatId)) next.delete(chatId);
        else next.add(chatId);
        return next;
      });
      anchor.current = chatId;
    },
    [ordered],
  );

  return {
    active,
    setActive,
    ids,
    chosen: ordered.filter((c) => ids.has(c.id)),
    toggle,
    selectAll: () => setIds(new Set(ordered.map((c) => c.id))),
    clear,
  };
}

/** What can be done to the selected chats: archive or delete them (with Undo), or stop selecting. */
export function SelectionBar({ workspaceId, selection }: { workspaceId: string; selection: ChatSelectionState }) {
  const router = useRouter();
  const pathname = usePathname();
  const { chosen } = selection;
  const count = chosen.length;
  const base = `/w/${encodeURIComponent(workspaceId)}`;

  function leaveIfOpen() {
    if (chosen.some((c) => pathname === `${base}/chat/${encodeURIComponent(c.id)}`)) router.push(base);
  }

  function remove() {
    leaveIfOpen();
    deleteChatsWithUndo(workspaceId, chosen);
    selection.setActive(false);
  }

  async function archive() {
    const chats = chosen;
    selection.setActive(false);
    const results = await Promise.allSettled(chats.map((chat) => archiveChat(workspaceId, chat, true)));
    const archived = chats.filter((_, i) => results[i]?.status === 'fulfilled');
    const failed = chats.length - archived.length;
    if (archived.length > 0) {
      toast.success(archived.length === 1 ? 'Archived 1 chat' : `Archived ${archived.length} chats`, {
        action: {
          label: 'Undo',
          onClick: () => void Promise.allSettled(archived.map((chat) => archiveChat(workspaceId, chat, false))),
        },
      });
    }
    if (failed > 0) toast.error(failed === 1 ? '1 chat could not be archived' : `${failed} chats could not be archived`);
  }

  return (
    <section
      aria-label="Selected chats"
      className="mx-1 mb-2 flex items-center gap-0.5 rounded-lg border border-neutral-200 bg-white py-1 pr-1 pl-2 text-xs dark:border-neutral-800 dark:bg-neutral-900"
    >
      <p role="status" className="mr-auto truncate text-neutral-600 dark:text-neutral-400">
        {count === 0 ? 'Select chats' : count === 1 ? '1 selected' : `${count} selected`}
      </p>
      <BarButton onClick={count === 0 ? selection.selectAll : selection.clear}>{count === 0 ? 'All' : 'None'}</BarButton>
      <BarButton disabled={count === 0} onClick={() => void archive()} label={`Archive ${count} selected chats`}>
        <Archive className="h-3.5 w-3.5" aria-hidden />
      </BarButton>
      <BarButton disabled={count === 0} onClick={remove} label={`Delete ${count} selected chats`}>
        <Trash2 className="h-3.5 w-3.5" aria-hidden />
      </BarButton>
      <BarButton onClick={() => selection.setActive(false)} label="Stop selecting">
        <X className="h-3.5 w-3.5" aria-hidden />
      </BarButton>
    </section>
  );
}

function BarButton({ label, disabled, onClick, children }: { label?: string; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="grid h-8 min-w-8 shrink-0 cursor-pointer place-items-center rounded-md px-1.5 text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-default disabled:opacity-40 disabled:hover:bg-transparent dark:text-neutral-300 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
    >
      {children}
    </button>
  );
}
