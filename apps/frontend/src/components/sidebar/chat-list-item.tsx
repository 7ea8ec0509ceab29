'use client';

import { chatTitleSchema, type Chat } from '@baton/schemas';
import { Archive, Pencil, Pin, PinOff, SquareTerminal, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { deleteChatsWithUndo } from '@/lib/chat-deletion';
import { archiveChat, pinChat, renameChat } from '@/lib/chat-list';

export function chatLabel(chat: Pick<Chat, 'title'>) {
  return chat.title.trim() || 'Untitled chat';
}

export interface ChatSelection {
  selected: boolean;
  /** `range`: from the last chat toggled to this one (Shift). */
  onToggle: (range: boolean) => void;
}

/**
 * A row of the chat list: the chat's link with its actions (pin, rename inline, archive,
 * delete with Undo), or, while several chats are being selected, a checkbox.
 */
export function ChatListItem({ workspaceId, chat, selection }: { workspaceId: string; chat: Chat; selection?: ChatSelection }) {
  const pathname = usePathname();
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  const href = `${base}/chat/${encodeURIComponent(chat.id)}`;
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

  function remove() {
    // The open chat is leaving: go to a new chat now rather than show a page that is about to go.
    if (active) router.push(base);
    deleteChatsWithUndo(workspaceId, [chat]);
  }

  return (
    <li
      className={
        'group relative flex items-center gap-1 rounded-lg pr-1 transition-colors ' +
        (active || selection?.selected
          ? 'bg-neutral-200 dark:bg-neutral-800'
          : 'hover:bg-neutral-200 focus-within:bg-neutral-200 dark:hover:bg-neutral-800 dark:focus-within:bg-neutral-800')
      }
    >
      {selection ? (
        <SelectRow label={label} selection={selection} />
      ) : renaming ? (
        <InlineRename chat={chat} onDone={() => setRenaming(false)} />
      ) : (
        <Link
          href={href}
          aria-current={active ? 'page' : undefined}
          title={`${label} (F2 renames)`}
          data-chat-id={chat.id}
          onKeyDown={(e) => {
            if (e.key === 'F2') {
              e.preventDefault();
              setRenaming(true);
            }
          }}
          className="min-w-0 flex-1 truncate rounded-lg px-2 py-3 text-sm text-neutral-800 md:py-2 dark:text-neutral-200"
        >
          {label}
        </Link>
      )}
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
      {!selection && !renaming && (
        // On wide screens the actions cover the end of the row while it is hovered or focused, so titles use the whole width.
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
          <IconButton label={`Delete chat ${label}`} onClick={remove}>
            <Trash2 className="h-3.5 w-3.5" aria-hidden />
          </IconButton>
        </div>
      )}
    </li>
  );
}

function SelectRow({ label, selection }: { label: string; selection: ChatSelection }) {
  // The click comes before the change and is the one that knows about Shift.
  const shift = useRef(false);
  return (
    <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 rounded-lg px-2 py-3 text-sm text-neutral-800 md:py-2 dark:text-neutral-200">
      <input
        type="checkbox"
        checked={selection.selected}
        onClick={(e) => {
          shift.current = e.shiftKey;
        }}
        onChange={() => {
          selection.onToggle(shift.current);
          shift.current = false;
        }}
        className="h-4 w-4 shrink-0 accent-indigo-600"
      />
      <span className="min-w-0 flex-1 truncate">{label}</span>
    </label>
  );
}

/**
 * The title as a text box in place of the link: Enter or leaving the box saves, Escape
 * keeps the old title. An empty title is refused where it is typed.
 */
function InlineRename({ chat, onDone }: { chat: Chat; onDone: () => void }) {
  const [title, setTitle] = useState(chat.title);
  const [error, setError] = useState<string>();
  const finished = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  async function save() {
    if (finished.current) return;
    const parsed = chatTitleSchema.safeParse(title);
    if (!parsed.success) {
      setError(`Title ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
      input.current?.focus();
      return;
    }
    finished.current = true;
    onDone();
    if (parsed.data === chat.title) return;
    try {
      await renameChat(chat.workspaceId, chat.id, parsed.data);
    } catch (err) {
      toast.error(`The chat could not be renamed: ${(err as Error).message}`);
    }
  }

  function cancel() {
    finished.current = true;
    onDone();
  }

  return (
    <div className="min-w-0 flex-1 px-1 py-1.5">
      <input
        ref={input}
        aria-label="Chat title"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `rename-error-${chat.id}` : undefined}
        value={title}
        maxLength={200}
        onChange={(e) => {
          setTitle(e.target.value);
          setError(undefined);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            cancel();
          }
        }}
        onBlur={() => (error ? cancel() : void save())}
        className="w-full rounded-md border border-indigo-500 bg-white px-1.5 py-1 text-sm text-neutral-900 outline-none dark:bg-neutral-900 dark:text-neutral-100"
      />
      {error && (
        <p id={`rename-error-${chat.id}`} role="alert" className="px-0.5 pt-0.5 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
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
