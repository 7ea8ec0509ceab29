'use client';

import { type AgentFeedbackPage, type FeedbackEntry, isAdminRole } from '@baton/schemas';
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { MessageSquareText, ThumbsDown, ThumbsUp } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { formatDayAndTime } from '@/lib/format-date';
import { queryKeys } from '@/lib/queries';
import { useMembership, useSession } from '@/lib/session';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Spinner } from '../ui/spinner';

type Filter = 'all' | 'up' | 'down';
const PAGE_SIZE = 20;

/**
 * Admins: what people said about this agent's answers (👍 / 👎, comments), newest first. The
 * chats stay private to their authors, so each rating shows the start of the rated answer; only
 * one's own chats are links.
 */
export function AgentFeedbackCard({ workspaceId, agentId }: { workspaceId: string; agentId: string }) {
  const membership = useMembership(workspaceId);
  if (!membership || !isAdminRole(membership.role)) return null;
  return <FeedbackList workspaceId={workspaceId} agentId={agentId} />;
}

function FeedbackList({ workspaceId, agentId }: { workspaceId: string; agentId: string }) {
  const [filter, setFilter] = useState<Filter>('all');
  const myId = useSession((s) => s.me?.user.id);
  const query = useInfiniteQuery({
    queryKey: queryKeys.agentFeedback(workspaceId, agentId, filter),
    queryFn: ({ pageParam }) =>
      api.agents.feedback(workspaceId, agentId, { limit: PAGE_SIZE, cursor: pageParam, ...(filter === 'all' ? {} : { rating: filter }) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: AgentFeedbackPage) => last.nextCursor,
    // Opening the editor shows what was said up to now.
    refetchOnMount: 'always',
  });
  const pages = (query.data as InfiniteData<AgentFeedbackPage> | undefined)?.pages;
  const entries = pages?.flatMap((p) => p.data) ?? [];
  const totals = pages?.[0]?.totals;
  const chatHref = (chatId: string) => `/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(chatId)}`;

  const filters: { value: Filter; label: string }[] = [
    { value: 'all', label: totals ? `All (${totals.up + totals.down})` : 'All' },
    { value: 'up', label: totals ? `Good (${totals.up})` : 'Good' },
    { value: 'down', label: totals ? `Bad (${totals.down})` : 'Bad' },
  ];

  return (
    <Card title="Feedback" description="Ratings people gave this agent’s answers, newest first. Only admins see this.">
      <div role="radiogroup" aria-label="Show ratings" className="mb-3 flex flex-wrap gap-2">
        {filters.map((f) => (
          <button
            key={f.value}
            type="button"
            role="radio"
            aria-checked={filter === f.value}
            onClick={() => setFilter(f.value)}
            className={
              'rounded-full border px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ' +
              (filter === f.value
                ? 'border-indigo-600 bg-indigo-50 text-indigo-700 dark:border-indigo-400 dark:bg-indigo-950/60 dark:text-indigo-200'
                : 'border-neutral-300 text-neutral-700 hover:bg-neutral-50 dark:border-neutral-700 dark:text-neutral-300 dark:hover:bg-neutral-800')
            }
          >
            {f.label}
          </button>
        ))}
      </div>
      {query.isPending ? (
        <Spinner label="Loading feedback…" />
      ) : query.isError && entries.length === 0 ? (
        <RetryAlert onRetry={() => void query.refetch()}>Could not load the feedback: {query.error.message}</RetryAlert>
      ) : entries.length === 0 ? (
        <p className="flex items-start gap-2 text-sm text-neutral-600 dark:text-neutral-400">
          <MessageSquareText className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {filter === 'all'
            ? 'No ratings yet. People rate an answer with the thumbs under it in their chats.'
            : `No ${filter === 'up' ? 'good' : 'bad'} ratings yet.`}
        </p>
      ) : (
        <>
          <ul aria-label="Ratings" className="divide-y divide-neutral-200 dark:divide-neutral-800">
            {entries.map((entry) => (
              <FeedbackRow key={entry.id} entry={entry} own={entry.userId === myId} href={chatHref(entry.chatId)} />
            ))}
          </ul>
          {query.hasNextPage && (
            <div className="mt-3">
              <Button variant="secondary" size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? 'Loading…' : 'Show more'}
              </Button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}

function FeedbackRow({ entry, own, href }: { entry: FeedbackEntry; own: boolean; href: string }) {
  const up = entry.rating === 'up';
  const Icon = up ? ThumbsUp : ThumbsDown;
  return (
    <li aria-label={`${up ? 'Good' : 'Bad'} answer, rated by ${entry.userName}`} className="flex gap-3 py-3 text-sm">
      <Icon
        className={`mt-0.5 h-4 w-4 shrink-0 ${up ? 'text-emerald-600 dark:text-emerald-400' : 'text-red-600 dark:text-red-400'}`}
        aria-hidden
        fill="currentColor"
        fillOpacity={0.15}
      />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-neutral-600 dark:text-neutral-400">
          <span className="font-medium text-neutral-900 dark:text-neutral-100">{entry.userName}</span>
          <time dateTime={entry.updatedAt}>{formatDayAndTime(entry.updatedAt)}</time>
        </p>
        {entry.comment ? (
          <p className="mt-1 whitespace-pre-wrap break-words text-neutral-900 dark:text-neutral-100">{entry.comment}</p>
        ) : (
          <p className="mt-1 text-neutral-500 italic">No comment</p>
        )}
        {entry.answerExcerpt && (
          <p className="mt-1 line-clamp-2 break-words border-l-2 border-neutral-200 pl-2 text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
            {entry.answerExcerpt}
          </p>
        )}
        <p className="mt-1 text-xs text-neutral-500">
          {own ? (
            <Link href={href} className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
              Open chat “{entry.chatTitle}”
            </Link>
          ) : (
            <>
              In {entry.userName}’s chat “{entry.chatTitle}” (private to them)
            </>
          )}
        </p>
      </div>
    </li>
  );
}
