'use client';

import { FolderPlus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { signOut } from '@/lib/sign-out';
import { useSession } from '@/lib/session';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { NewWorkspaceDialog } from './new-workspace-dialog';

/** `/`: the signed-in person's first workspace; someone in none can create one. */
export function HomeRedirect() {
  const router = useRouter();
  const { me, status, error, load, reload } = useSession();
  const [creating, setCreating] = useState(false);
  const home = me?.memberships[0];

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (home) router.replace(`/w/${encodeURIComponent(home.workspaceId)}`);
  }, [home, router]);

  if (!me && status === 'error') {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <RetryAlert onRetry={() => void reload()}>Could not load your account: {error}</RetryAlert>
      </div>
    );
  }
  if (!me || home) {
    return (
      <div className="grid min-h-dvh place-items-center">
        <Spinner label="Opening your workspace…" />
      </div>
    );
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <EmptyState
        icon={FolderPlus}
        title="You are not in a workspace"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button onClick={() => setCreating(true)}>New workspace</Button>
            <Button variant="secondary" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        }
      >
        Signed in as {me.user.email}. Open an invite link from a workspace admin to join theirs, or create a workspace of your own.
      </EmptyState>
      <NewWorkspaceDialog open={creating} onOpenChange={setCreating} />
    </main>
  );
}
