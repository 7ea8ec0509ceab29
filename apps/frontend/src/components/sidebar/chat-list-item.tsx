'use client';

import type { Chat } from '@baton/schemas';
import { Archive, Pencil, Pin, PinOff, SquareTerminal, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { archiveChat, pinChat, removeChat } from '@/lib/chat-list';
import { ConfirmDialog } from '../confirm-dialog';
import { RenameChatDialog } from './rename-chat-dialog';

export function chatLabel(chat: Pick<Chat, 'title'>) {
  return chat.title.trim() || 'Untitled chat';
}

export function ChatListItem({ workspaceId, chat }: { workspaceId: string; chat: Chat }) {
  const pathname = usePathname();
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const href = `/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(chat.id)}`;
  const active = pathname === href;
  const label = chatLabel(chat);

  async function filed(change: () => Promise<unknown>) {
    try {
      await change();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'The chat could not be changed');
    }
  }

  async function archive() {
    await filed(async () => {
      await archiveChat(workspaceId, chat, true);
      toast.success(`Archived “${label}”`, {
        action: { label: 'Undo', onClick: () => void filed(() => archiveChat(workspaceId, chat, false)) },
      });
    });
  }

  async function confirmDelete() {
    await removeChat(workspaceId, chat.id);
    toast.success('Chat deleted');
    if (active) router.push(`/w/${encodeURIComponent(workspaceId)}`);
  }

  return (
    <li
      className={
        'group relative flex items-center gap-1 rounded-lg pr-1 transition-colors ' +
        (active
          ? 'bg-neutral-200 dark:bg-neutral-800'
          : 'hover:bg-neutral-200 focus-within:bg-neutral-200 dark:hover:bg-neutral-800 dark:focus-within:bg-neutral-800')
      }
    >
      <Link
        href={href}
        aria-current={active ? 'page' : undefined}
        title={label}
        className="min-w-0 flex-1 truncate rounded-lg px-2 py-3 text-sm text-neutral-800 md:py-2 dark:text-neutral-200"
      >
        {label}
      </Link>
      {chat.source === 'api' && <ApiMark keyName={chat.apiKeyName} />}
      {chat.pinned && (
        <span
          role="img"
          aria-label="Pinned"
          title="Pinned"
          className="shrink-0 text-neutral-400 md:group-focus-within:hidden md:group-hover:hidden dark:text-neutral-500"
        >
          <Pin className="h-3.5 w-3.5" aria-hidden />
        </span>
      )}
      {/* On wide screens the actions cover the end of the row while it is hovered or focused, so titles use the whole width. */}
      <div className="flex shrink-0 items-center md:absolute md:inset-y-0 md:right-0 md:rounded-r-lg md:bg-inherit md:pr-1 md:pl-2 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
        <IconButton label={`${chat.pinned ? 'Unpin' : 'Pin'} chat ${label}`} onClick={() => void filed(() => pinChat(workspaceId, chat.id, !chat.pinned))}>
          {chat.pinned ? <PinOff className="h-3.5 w-3.5" aria-hidden /> : <Pin className="h-3.5 w-3.5" aria-hidden />}
        </IconButton>
        <IconButton label={`Rename chat ${label}`} onClick={() => setRenaming(true)}>
          <Pencil className="h-3.5 w-3.5" aria-hidden />
        </IconButton>
        <IconButton label={`Archive chat ${label}`} onClick={() => void archive()}>
          <Archive className="h-3.5 w-3.5" aria-hidden />
        </IconButton>
        <IconButton label={`Delete chat ${label}`} onClick={() => setDeleting(true)}>
          <Trash2 className="h-3.5 w-3.5" aria-hidden />
        </IconButton>
      </div>
      <RenameChatDialog open={renaming} onOpenChange={setRenaming} chat={chat} />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete chat?"
        description={`“${label}” and its sub-agent chats will be deleted permanently.`}
        confirmLabel="Delete chat"
        onConfirm={confirmDelete}
      />
    </li>
  );
}

/** A chat a program started with an API key (outside the link, so the chat's name stays its title). */
function ApiMark({ keyName }: { keyName: string | null }) {
  const text = keyName ? `Started through the API with the key “${keyName}”` : 'Started through the API';
  return (
    <span role="img" aria-label={text} title={text} className="shrink-0 text-neutral-400 dark:text-neutral-500">
      <SquareTerminal className="h-3.5 w-3.5" aria-hidden />
    </span>
  );
}

function IconButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="grid h-11 w-11 cursor-pointer place-items-center rounded-md md:h-7 md:w-7 text-neutral-500 hover:bg-neutral-300/60 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-700 dark:hover:text-neutral-100"
    >
      {children}
    </button>
  );
}
