'use client';

import type { Share } from '@baton/schemas';
import { Link2, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { formatDay, formatDayAndTime } from '@/lib/format-date';
import { queryKeys } from '@/lib/queries';
import { useMembership } from '@/lib/session';
import { useApiQuery } from '@/lib/use-api-query';
import { ConfirmDialog } from '../confirm-dialog';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';

/** The person's share links in this workspace (never the links themselves: only a hash is kept), each with Revoke. */
export function SharedLinksSettings({ workspaceId }: { workspaceId: string }) {
  const membership = useMembership(workspaceId)!;
  const { data, error, reload, setData } = useApiQuery(queryKeys.shares(workspaceId), () => api.shares.list(workspaceId));
  const [revoking, setRevoking] = useState<Share | null>(null);
  const base = `/w/${encodeURIComponent(workspaceId)}`;

  async function revoke(share: Share) {
    await api.shares.revoke(workspaceId, share.id);
    setData((current) => (current ?? []).filter((s) => s.id !== share.id));
    toast.success(`The link to “${share.chatTitle}” no longer works`);
  }

  return (
    <PageContainer width="lg">
      <PageHeader
        title="Shared links"
        description={`Read-only links to your chats in ${membership.workspaceName}. Anyone holding one can read the chat and its sub-agents’ conversations without signing in, until you revoke it or it expires. Share a chat from its ⋯ menu.`}
      />
      {error && <RetryAlert onRetry={() => void reload()}>Could not load your shared links: {error.message}</RetryAlert>}
      {!data && !error && <Spinner label="Loading shared links…" />}
      {data?.length === 0 && (
        <EmptyState icon={Link2} title="No shared links">
          Open a chat, choose <strong>⋯ → Share…</strong>, and send the link to whoever should read it.
        </EmptyState>
      )}
      {data && data.length > 0 && (
        <ul
          aria-label="Shared links"
          className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 bg-white dark:divide-neutral-800 dark:border-neutral-800 dark:bg-neutral-900"
        >
          {data.map((share) => (
            <li key={share.id} aria-label={share.chatTitle} className="flex items-center gap-3 px-4 py-3">
              <div className="min-w-0 flex-1">
                <Link
                  href={`${base}/chat/${encodeURIComponent(share.chatId)}`}
                  className="block truncate font-medium text-neutral-900 hover:underline dark:text-neutral-100"
                >
                  {share.chatTitle.trim() || 'Untitled chat'}
                </Link>
                <p className="mt-0.5 text-xs text-neutral-500 dark:text-neutral-400">
                  Shared <time dateTime={share.createdAt}>{formatDay(share.createdAt)}</time> ·{' '}
                  {share.expired ? (
                    <span className="font-medium text-amber-700 dark:text-amber-400">Expired</span>
                  ) : share.expiresAt ? (
                    <>
                      Expires <time dateTime={share.expiresAt}>{formatDayAndTime(share.expiresAt)}</time>
                    </>
                  ) : (
                    'No expiry'
                  )}
                </p>
              </div>
              <Button variant="ghost" size="icon" aria-label={`Revoke the link to ${share.chatTitle}`} title="Revoke" onClick={() => setRevoking(share)}>
                <Trash2 className="h-4 w-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this link?"
        description={`The link to “${revoking?.chatTitle ?? ''}” stops working at once for everyone who has it. The chat itself stays.`}
        confirmLabel="Revoke link"
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
      />
    </PageContainer>
  );
}
