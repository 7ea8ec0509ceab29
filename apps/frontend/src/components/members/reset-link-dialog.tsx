'use client';

import { type Member, PASSWORD_RESET_TTL_MINUTES } from '@baton/schemas';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { CopyField } from '../ui/copy-field';
import { Dialog } from '../ui/dialog';

/**
 * A one-time password reset link for a member who forgot theirs (no mail needed): made on
 * request, shown once to copy and hand over however the admin reaches them.
 */
export function ResetLinkDialog({ workspaceId, member, onClose }: { workspaceId: string; member: Member | null; onClose: () => void }) {
  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => !open && onClose()}
      title={member ? `Password reset link for ${member.name}` : 'Password reset link'}
      description={`${member?.name ?? 'The member'} opens it to set a new password. It works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes, and signs them out everywhere.`}
    >
      {member && <ResetLink key={member.userId} workspaceId={workspaceId} member={member} onClose={onClose} />}
    </Dialog>
  );
}

function ResetLink({ workspaceId, member, onClose }: { workspaceId: string; member: Member; onClose: () => void }) {
  const [link, setLink] = useState<{ url: string; expiresAt: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function create() {
    setBusy(true);
    setError(undefined);
    try {
      const made = await api.members.passwordReset(workspaceId, member.userId);
      // The link of the address this admin uses, like invite links.
      setLink({ url: `${window.location.origin}/reset-password/${encodeURIComponent(made.token)}`, expiresAt: made.expiresAt });
    } catch (err) {
      setError(authErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (link) {
    const until = new Date(link.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return (
      <div className="flex flex-col gap-3">
        <CopyField id="reset-link" label="Reset link" value={link.url} />
        <p className="text-xs text-neutral-600 dark:text-neutral-400">
          Copy it now: it is shown only this once. Send it to {member.name} yourself (chat, phone); it works until {until}. Anyone with the link can set the
          password, so send it only to them.
        </p>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {error && <Alert>{error}</Alert>}
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Their current password keeps working until the link is used. A link made earlier for {member.name} stops working.
      </p>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void create()} disabled={busy}>
          <KeyRound className="h-4 w-4" aria-hidden />
          {busy ? 'Creating…' : 'Create reset link'}
        </Button>
      </div>
    </div>
  );
}
