'use client';

import type { SharedChat } from '@baton/schemas';
import { Eye, Link2Off } from 'lucide-react';
import Link from 'next/link';
import { useMemo } from 'react';
import { api, ApiError } from '@/lib/api-client';
import { formatDayAndTime } from '@/lib/format-date';
import { queryKeys } from '@/lib/queries';
import { toUIMessages } from '@/lib/stored-messages';
import { useApiQuery } from '@/lib/use-api-query';
import { useDocumentTitle } from '@/lib/use-document-title';
import { MessageList } from '../chat/message-list';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { SharedChatContext, sharedChatSource } from './shared-chat-context';

/** Not a workspace: the shared transcript's components are told this where they would name one (they call no API here). */
const SHARED_WORKSPACE = 'shared';

/**
 * A chat opened through a share link, for anyone holding it: the conversation as its author
 * sees it, read-only — the same message and delegation components, each delegation's
 * sub-chat expandable in place (and theirs below them) — with nothing to send, edit or retry.
 */
export function SharedChatView({ token }: { token: string }) {
  const { data, error, reload } = useApiQuery(queryKeys.shared(token), () => api.shared(token), { staleTime: Infinity });
  useDocumentTitle(data ? `${data.chat.title.trim() || 'Untitled chat'} · Shared · Baton` : undefined);
  return (
    <div className="flex min-h-dvh flex-col bg-white text-neutral-900 dark:bg-neutral-950 dark:text-neutral-100">
      <header className="flex h-12 shrink-0 items-center gap-3 border-b border-neutral-200 px-4 md:px-8 dark:border-neutral-800">
        <Link href="/" className="font-semibold tracking-tight hover:underline">
          Baton
        </Link>
        <span className="inline-flex items-center gap-1 rounded-full bg-neutral-100 px-2 py-0.5 text-xs font-medium text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
          <Eye className="h-3.5 w-3.5" aria-hidden />
          Shared conversation · read-only
        </span>
      </header>
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-6 md:px-8">
        {error &&
          (error instanceof ApiError && error.isNotFound ? (
            <LinkGone />
          ) : (
            <RetryAlert onRetry={() => void reload()}>Could not load this shared chat: {error.message}</RetryAlert>
          ))}
        {!data && !error && <Spinner label="Loading the shared chat…" />}
        {data && <SharedTranscript shared={data} />}
      </main>
    </div>
  );
}

function SharedTranscript({ shared }: { shared: SharedChat }) {
  const { chat } = shared;
  const source = useMemo(() => sharedChatSource(chat), [chat]);
  const messages = useMemo(() => toUIMessages(chat.messages), [chat.messages]);
  return (
    <SharedChatContext.Provider value={source}>
      <div className="mb-6 border-b border-neutral-200 pb-4 dark:border-neutral-800">
        <h1 className="break-words text-xl font-semibold">{chat.title.trim() || 'Untitled chat'}</h1>
        <p className="mt-1 text-sm text-neutral-500">
          {chat.agentName ? `With ${chat.agentName} · ` : ''}
          <time dateTime={chat.createdAt}>{formatDayAndTime(chat.createdAt)}</time>
          {shared.expiresAt && (
            <>
              {' · '}link expires <time dateTime={shared.expiresAt}>{formatDayAndTime(shared.expiresAt)}</time>
            </>
          )}
        </p>
      </div>
      {messages.length === 0 ? (
        <p className="text-sm text-neutral-500">This chat has no messages yet.</p>
      ) : (
        <MessageList messages={messages} workspaceId={SHARED_WORKSPACE} chatId={chat.id} />
      )}
    </SharedChatContext.Provider>
  );
}

function LinkGone() {
  return (
    <EmptyState
      icon={Link2Off}
      title="This link doesn’t work"
      action={
        <Link href="/" className={buttonClasses('secondary')}>
          Go to Baton
        </Link>
      }
    >
      The chat behind it is no longer shared: the link was revoked, it expired, or the chat was deleted. Ask the person who shared it for a new link.
    </EmptyState>
  );
}
