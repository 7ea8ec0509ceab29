'use client';

import type { Chat, Page } from '@baton/schemas';
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { Archive, ArchiveRestore, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { archiveChat, CHAT_PAGE_SIZE, removeChat } from '@/lib/chat-list';
import { formatTimeAgo } from '@/lib/format-date';
import { queryKeys } from '@/lib/queries';
import { ConfirmDialog } from '../confirm-dialog';
import { chatLabel } from '../sidebar/chat-list-item';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';

/** The person's archived chats: open, bring back to the list, or delete. */
export function ArchivedChats({ workspaceId }: { workspaceId: string }) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.archivedChats(workspaceId),
    queryFn: ({ pageParam }) => api.chats.list(workspaceId, { limit: CHAT_PAGE_SIZE, cursor: pageParam, archived: true }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<Chat>) => last.nextCursor,
  });
  const chats = (query.data as InfiniteData<Page<Chat>> | undefined)?.pages.flatMap((p) => p.data) ?? [];
  const [deleting, setDeleting] = useState<Chat | null>(null);

  async function restore(chat: Chat) {
    try {
      await archiveChat(workspaceId, chat, false);
      toast.success(`“${chatLabel(chat)}” is back in the chat list`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'The chat could not be restored');
    }
  }

  return (
    <PageContainer width="lg">
      <PageHeader
        title="Archived chats"
        description="Chats you archived are out of the sidebar's list. They stay readable and can be continued, restored or deleted."
      />
      {query.isPending ? (
        <Spinner label="Loading archived chats…" />
      ) : query.isError && chats.length === 0 ? (
        <RetryAlert onRetry={() => void query.refetch()}>Could not load archived chats: {query.error.message}</RetryAlert>
      ) : chats.length === 0 ? (
        <EmptyState icon={Archive} title="No archived chats">
          Archive a chat from the sidebar (the box icon next to its title) to file it here.
        </EmptyState>
      ) : (
        <ul
          aria-label="Archived chats"
          className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
        >
          {chats.map((chat) => (
            <li key={chat.id} className="flex items-center gap-2 px-3 py-2">
              <Link
                href={`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(chat.id)}`}
                className="min-w-0 flex-1 truncate rounded text-sm font-medium text-neutral-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-neutral-100"
              >
                {chatLabel(chat)}
              </Link>
              <span className="shrink-0 text-xs text-neutral-500 max-sm:hidden">{formatTimeAgo(chat.updatedAt)}</span>
              <Button variant="ghost" size="sm" onClick={() => void restore(chat)} aria-label={`Restore chat ${chatLabel(chat)}`}>
                <ArchiveRestore className="h-4 w-4" aria-hidden />
                <span className="max-sm:sr-only">Restore</span>
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setDeleting(chat)} aria-label={`Delete chat ${chatLabel(chat)}`}>
                <Trash2 className="h-4 w-4" aria-hidden />
                <span className="max-sm:sr-only">Delete</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <Button variant="ghost" className="mt-2 w-full" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete chat?"
        description={deleting ? `“${chatLabel(deleting)}” and its sub-agent chats will be deleted permanently.` : ''}
        confirmLabel="Delete chat"
        onConfirm={async () => {
          if (!deleting) return;
          await removeChat(workspaceId, deleting.id);
          toast.success('Chat deleted');
        }}
      />
    </PageContainer>
  );
}
