'use client';

import { isAdminRole, type ApiKey, type ApiKeyCreated } from '@baton/schemas';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { formatDay, formatDayAndTime, formatTimeAgo } from '@/lib/format-date';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { useMembership, useSession } from '@/lib/session';
import { ConfirmDialog } from '../confirm-dialog';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';
import { CreateKeyDialog } from './create-key-dialog';

async function loadKeys(workspaceId: string, admin: boolean) {
  // Admins see every key of the workspace: the members list names their holders.
  const [keys, members] = await Promise.all([api.apiKeys.list(workspaceId), admin ? api.members.list(workspaceId) : Promise.resolve([])]);
  return { keys, holders: new Map(members.map((m) => [m.userId, m.name])) };
}

/** API keys for REST clients: create (shown once), list, revoke. Admins see and revoke everyone's. */
export function ApiKeySettings({ workspaceId }: { workspaceId: string }) {
  const membership = useMembership(workspaceId)!;
  const myUserId = useSession((s) => s.me!.user.id);
  const admin = isAdminRole(membership.role);
  const { data, error, reload, setData } = useApiQuery(queryKeys.apiKeys(workspaceId, admin), () => loadKeys(workspaceId, admin));
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  function created(key: ApiKeyCreated) {
    const listed: ApiKey = { id: key.id, name: key.name, prefix: key.prefix, userId: myUserId, createdAt: key.createdAt, lastUsedAt: null };
    setData((current) => ({ keys: [...(current?.keys ?? []), listed], holders: current?.holders ?? new Map() }));
  }

  async function revoke(key: ApiKey) {
    await api.apiKeys.revoke(workspaceId, key.id);
    setData((current) => ({ keys: (current?.keys ?? []).filter((k) => k.id !== key.id), holders: current?.holders ?? new Map() }));
    toast.success(`Revoked “${key.name}”: it no longer works`);
  }

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus className="h-4 w-4" aria-hidden />
      Create API key
    </Button>
  );
  const holder = (key: ApiKey) => (key.userId === myUserId ? 'You' : (data?.holders.get(key.userId) ?? 'A former member'));

  return (
    <PageContainer width="lg">
      <PageHeader
        title="API keys"
        description={
          admin
            ? `Keys let programs call Baton's API as their holder, in ${membership.workspaceName} only. As an admin you see everyone's keys here and can revoke any of them.`
            : `Keys let your programs call Baton's API as you, in ${membership.workspaceName} only.`
        }
        actions={createButton}
      />
      {error && <RetryAlert onRetry={() => void reload()}>Could not load API keys: {error.message}</RetryAlert>}
      {!data && !error && <Spinner label="Loading API keys…" />}
      {data?.keys.length === 0 && (
        <EmptyState icon={KeyRound} title="No API keys yet" action={createButton}>
          Create a key for a script or another program, and send it as <code className="text-xs">Authorization: Bearer &lt;key&gt;</code>.
        </EmptyState>
      )}
      {data && data.keys.length > 0 && (
        <div className="overflow-x-auto rounded-xl border border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-900">
          <table aria-label="API keys" className="w-full text-left text-sm sm:min-w-[36rem]">
            <thead className="border-b border-neutral-200 text-xs uppercase tracking-wide text-neutral-500 dark:border-neutral-800">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Name
                </th>
                <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                  Key
                </th>
                {admin && (
                  <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                    Owner
                  </th>
                )}
                <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                  Created
                </th>
                <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                  Last used
                </th>
                <th scope="col" className="px-4 py-2.5">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
              {data.keys.map((key) => (
                <tr key={key.id} aria-label={key.name}>
                  <td className="px-4 py-3">
                    <span className="break-words font-medium text-neutral-900 dark:text-neutral-100">{key.name}</span>
                    {/* Phones: the other columns would push Revoke off-screen, so their facts go under the name. */}
                    <span className="mt-0.5 block text-xs text-neutral-500 sm:hidden dark:text-neutral-400">
                      <span className="font-mono">{key.prefix}…</span>
                      {admin && ` · ${holder(key)}`} · Created {formatDay(key.createdAt)} · Last used <LastUsed at={key.lastUsedAt} />
                    </span>
                  </td>
                  <td className="hidden px-4 py-3 font-mono text-xs text-neutral-600 sm:table-cell dark:text-neutral-400">{key.prefix}…</td>
                  {admin && <td className="hidden px-4 py-3 text-neutral-700 sm:table-cell dark:text-neutral-300">{holder(key)}</td>}
                  <td className="hidden whitespace-nowrap px-4 py-3 text-neutral-600 sm:table-cell dark:text-neutral-400">{formatDay(key.createdAt)}</td>
                  <td className="hidden whitespace-nowrap px-4 py-3 text-neutral-600 sm:table-cell dark:text-neutral-400">
                    <LastUsed at={key.lastUsedAt} />
                  </td>
                  <td className="px-2 py-2 text-right">
                    <Button variant="ghost" size="icon" aria-label={`Revoke ${key.name}`} title="Revoke" onClick={() => setRevoking(key)}>
                      <Trash2 className="h-4 w-4" aria-hidden />
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <CreateKeyDialog workspaceId={workspaceId} workspaceName={membership.workspaceName} open={creating} onOpenChange={setCreating} onCreated={created} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke API key?"
        description={`“${revoking?.name ?? ''}” stops working at once: programs using it get 401 from then on.`}
        confirmLabel="Revoke key"
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
      />
    </PageContainer>
  );
}

function LastUsed({ at }: { at: string | null }) {
  if (!at) return 'Never';
  return (
    <time dateTime={at} title={formatDayAndTime(at)}>
      {formatTimeAgo(at)}
    </time>
  );
}
