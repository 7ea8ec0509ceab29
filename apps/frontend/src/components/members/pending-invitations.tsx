'use client';

import type { Invitation } from '@baton/schemas';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { formatDay } from '@/lib/format-date';
import { ROLE_LABELS } from '@/lib/roles';
import { ConfirmDialog } from '../confirm-dialog';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Spinner } from '../ui/spinner';

/** Links not used yet (admins): what they grant, until when, and Revoke. */
export function PendingInvitations({
  workspaceId,
  invitations,
  error,
  onRevoked,
}: {
  workspaceId: string;
  invitations: Invitation[] | undefined;
  error?: Error;
  onRevoked: (id: string) => void;
}) {
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  async function revoke(invitation: Invitation) {
    await api.invitations.revoke(workspaceId, invitation.id);
    onRevoked(invitation.id);
    toast.success('Invite link revoked');
  }

  return (
    <Card title="Pending invitations" description="Links that were created and not used yet.">
      {error && <Alert>Could not load invitations: {error.message}</Alert>}
      {!invitations && !error && <Spinner label="Loading invitations…" />}
      {invitations?.length === 0 && <p className="text-sm text-neutral-500">No pending invitations.</p>}
      {invitations && invitations.length > 0 && (
        <ul aria-label="Pending invitations" className="divide-y divide-neutral-200 dark:divide-neutral-800">
          {invitations.map((invitation) => (
            <li key={invitation.id} aria-label={`${ROLE_LABELS[invitation.role]} invitation`} className="flex items-center gap-3 py-2.5">
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium text-neutral-900 dark:text-neutral-100">{ROLE_LABELS[invitation.role]}</p>
                <p className="text-xs text-neutral-500">
                  Created {formatDay(invitation.createdAt)} · expires {formatDay(invitation.expiresAt)}
                </p>
              </div>
              <Button variant="ghost" size="sm" onClick={() => setRevoking(invitation)}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke invite link?"
        description="The link stops working at once; whoever has it can no longer join with it."
        confirmLabel="Revoke link"
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
      />
    </Card>
  );
}
