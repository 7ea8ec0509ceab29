'use client';

import { Archive, MessagesSquare } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useRef, type ReactNode } from 'react';
import { groupChats, useChatList } from '@/lib/chat-list';
import { setApiChatsHidden } from '@/lib/chat-list-view';
import { Button } from '../ui/button';
import { ChatListItem } from './chat-list-item';
import { SelectionBar, useChatSelection, type ChatSelectionState } from './chat-selection';

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/**
 * Top-level chats, pinned ones first, then by the day of their last activity (Today,
 * Yesterday, Previous 7 days…), newest first; the next page loads as the end scrolls into view.
 * Chats programs started with an API key are marked, and can be hidden (the heading's switch).
 */
export function ChatList({ workspaceId }: { workspaceId: string }) {
  const list = useChatList(workspaceId);
  const apiHidden = list.source === 'app';
  const selection = useChatSelection(list.chats);
  return (
    <>
      <div className="flex items-center justify-between gap-2 px-2 pb-1">
        <h2 className="text-xs font-medium uppercase tracking-wide text-neutral-500">Chats</h2>
        <div className="flex items-center gap-1">
          {(apiHidden || list.chats.some((c) => c.source === 'api')) && (
            <HeadingToggle
              pressed={apiHidden}
              title={apiHidden ? 'Chats started with an API key are hidden: show them' : 'Hide the chats programs started with an API key'}
              onClick={() => setApiChatsHidden(!apiHidden)}
            >
              Hide API chats
            </HeadingToggle>
          )}
          {list.chats.length > 0 && (
            <HeadingToggle
              pressed={selection.active}
              title="Select several chats to archive or delete them"
              onClick={() => selection.setActive(!selection.active)}
            >
              Select
            </HeadingToggle>
          )}
        </div>
      </div>
      {selection.active && <SelectionBar workspaceId={workspaceId} selection={selection} />}
      <ChatListBody workspaceId={workspaceId} list={list} selection={selection} />
    </>
  );
}

function HeadingToggle({ pressed, title, onClick, children }: { pressed: boolean; title: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      title={title}
      onClick={onClick}
      className="cursor-pointer rounded px-1.5 py-0.5 text-xs text-neutral-500 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 aria-pressed:bg-neutral-200 aria-pressed:text-neutral-900 dark:hover:text-neutral-100 dark:aria-pressed:bg-neutral-800 dark:aria-pressed:text-neutral-100"
    >
      {children}
    </button>
  );
}

function ChatListBody({ workspaceId, list, selection }: { workspaceId: string; list: ReturnType<typeof useChatList>; selection: ChatSelectionState }) {
  const { chats, status, error, hasMore, loadingMore, reload, loadMore } = list;

  if (status === 'loading' && chats.length === 0) {
    return (
      <p role="status" className="px-2 py-2 text-sm text-neutral-500">
        Loading chats…
      </p>
    );
  }
  if (status === 'error' && chats.length === 0) {
    return (
      <div role="alert" className="px-2 py-2 text-sm text-red-600 dark:text-red-400">
        <p>Could not load chats: {error}</p>
        <Button variant="ghost" size="sm" className="mt-1 -ml-3" onClick={reload}>
          Retry
        </Button>
      </div>
    );
  }
  if (status === 'ready' && chats.length === 0 && list.source === 'app') {
    return (
      <div className="mx-1 flex flex-col items-center gap-2 rounded-lg border border-dashed border-neutral-300 px-3 py-6 text-center text-sm text-neutral-500 dark:border-neutral-700">
        <MessagesSquare className="h-5 w-5" aria-hidden />
        <p>No chats of your own yet; chats started with an API key are hidden.</p>
        <Button variant="ghost" size="sm" onClick={() => setApiChatsHidden(false)}>
          Show API chats
        </Button>
      </div>
    );
  }
  if (status === 'ready' && chats.length === 0) {
    return (
      <div className="mx-1 flex flex-col items-center gap-2 rounded-lg border border-dashed border-neutral-300 px-3 py-6 text-center text-sm text-neutral-500 dark:border-neutral-700">
        <MessagesSquare className="h-5 w-5" aria-hidden />
        <p>No chats yet.</p>
        <p className="text-xs">Pick an agent under “New chat” and send a message — your conversations will be listed here.</p>
        <ArchivedLink workspaceId={workspaceId} />
      </div>
    );
  }

  return (
    <div className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape leaves selecting from any checkbox of the group. */}
      <div
        role="group"
        aria-label="Chats"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && selection.active) selection.setActive(false);
        }}
      >
        {groupChats(chats).map((group) => (
          <section key={group.name} aria-labelledby={`chat-group-${slug(group.name)}`} className="mb-2">
            <h3 id={`chat-group-${slug(group.name)}`} className="px-2 pt-1 pb-0.5 text-[11px] font-medium text-neutral-500">
              {group.name}
            </h3>
            <ul aria-label={`${group.name} chats`} className="flex flex-col gap-0.5">
              {group.chats.map((chat) => (
                <ChatListItem
                  key={chat.id}
                  workspaceId={workspaceId}
                  chat={chat}
                  selection={selection.active ? { selected: selection.ids.has(chat.id), onToggle: (range) => selection.toggle(chat.id, range) } : undefined}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
      {hasMore && <LoadMore loading={loadingMore} onVisible={loadMore} />}
      <ArchivedLink workspaceId={workspaceId} />
    </div>
  );
}

/** Where archived chats are (they leave the list). */
function ArchivedLink({ workspaceId }: { workspaceId: string }) {
  return (
    <Link
      href={`/w/${encodeURIComponent(workspaceId)}/archived`}
      className="mt-1 flex items-center gap-2 rounded-lg px-2 py-2 text-xs text-neutral-500 hover:bg-neutral-200/50 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-800/60 dark:hover:text-neutral-100"
    >
      <Archive className="h-3.5 w-3.5" aria-hidden />
      Archived chats
    </Link>
  );
}

function LoadMore({ loading, onVisible }: { loading: boolean; onVisible: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const onVisibleRef = useRef(onVisible);
  onVisibleRef.current = onVisible;

  // biome-ignore lint/correctness/useExhaustiveDependencies: observing again after each load asks for the next page when the button is still in view.
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onVisibleRef.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [loading]);

  return (
    <Button ref={ref} variant="ghost" size="sm" className="mt-1 w-full" disabled={loading} onClick={onVisible}>
      {loading ? 'Loading…' : 'Load more chats'}
    </Button>
  );
}
