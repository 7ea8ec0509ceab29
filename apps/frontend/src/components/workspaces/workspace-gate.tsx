'use client';

import { FolderX } from 'lucide-react';
import Link from 'next/link';
import { useEffect, type ReactNode } from 'react';
import { signOut } from '@/lib/sign-out';
import { useSession } from '@/lib/session';
import { RetryAlert } from '../ui/alert';
import { Button, buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';

/**
 * A workspace's pages open only for its members: the signed-in person is read once (a 401
 * goes to sign-in), and a workspace they do not belong to — or that does not exist, which
 * the API does not tell apart — is "not found".
 */
export function WorkspaceGate({ workspaceId, children }: { workspaceId: string; children: ReactNode }) {
  const { me, status, error, load, reload } = useSession();

  useEffect(() => {
    void load();
  }, [load]);

  if (!me && status === 'error') {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <RetryAlert onRetry={() => void reload()}>Could not load your account: {error}</RetryAlert>
      </div>
    );
  }
  if (!me) {
    return (
      <div className="grid min-h-dvh place-items-center">
        <Spinner label="Loading your workspace…" />
      </div>
    );
  }
  if (!me.memberships.some((m) => m.workspaceId === workspaceId)) {
    const home = me.memberships[0];
    return (
      <main className="mx-auto max-w-xl px-4 py-16">
        <EmptyState
          icon={FolderX}
          title="Workspace not found"
          action={
            <div className="flex flex-wrap justify-center gap-2">
              {home && (
                <Link href={`/w/${encodeURIComponent(home.workspaceId)}`} className={buttonClasses('primary')}>
                  Go to {home.workspaceName}
                </Link>
              )}
              <Button variant="secondary" onClick={() => void signOut()}>
                Sign out
              </Button>
            </div>
          }
        >
          There is no workspace “{workspaceId}” that you belong to. It may not exist, or you are not a member: ask one of its admins for an invite link. You are
          signed in as {me.user.email}.
        </EmptyState>
      </main>
    );
  }
  return children;
}
