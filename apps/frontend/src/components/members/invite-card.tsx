'use client';

import { INVITATION_TTL_DAYS, type GrantableRole, type Invitation } from '@baton/schemas';
import { Link2 } from 'lucide-react';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { formatDay } from '@/lib/format-date';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/roles';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { CopyField } from '../ui/copy-field';
import { controlProps, Field } from '../ui/field';
import { Input, Select } from '../ui/input';

/** Admins create invite links here; each link is shown this once. With mail (`mail`), the link can also be mailed. */
export function InviteCard({ workspaceId, mail, onCreated }: { workspaceId: string; mail: boolean; onCreated: (invitation: Invitation) => void }) {
  const [role, setRole] = useState<GrantableRole>('member');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<{ link: string; role: GrantableRole; expiresAt: string; emailedTo?: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function create() {
    setBusy(true);
    setError(undefined);
    try {
      const to = email.trim();
      const { token, emailedTo, ...invitation } = await api.invitations.create(workspaceId, { role, ...(mail && to ? { email: to } : {}) });
      setCreated({ link: `${window.location.origin}/invite/${encodeURIComponent(token)}`, role: invitation.role, expiresAt: invitation.expiresAt, emailedTo });
      if (emailedTo) setEmail('');
      onCreated(invitation);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const hint = `A ${ROLE_LABELS[role].toLowerCase()} ${ROLE_DESCRIPTIONS[role]}.`;
  return (
    <Card title="Invite people" description={`Create a link and send it to the person you want to invite. It works once, for ${INVITATION_TTL_DAYS} days.`}>
      <div className="flex flex-col gap-4">
        {error && <Alert>{error}</Alert>}
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <Field id="invite-role" label="Role" hint={hint} className="flex-1">
            <Select {...controlProps('invite-role', { hint })} value={role} onChange={(ev) => setRole(ev.target.value as GrantableRole)}>
              <option value="member">Member</option>
              <option value="admin">Admin</option>
            </Select>
          </Field>
          {mail && (
            <Field id="invite-email" label="Email (optional)" hint="Mail the link there too." className="flex-1">
              <Input
                {...controlProps('invite-email', { hint: true })}
                type="email"
                value={email}
                onChange={(ev) => setEmail(ev.target.value)}
                placeholder="name@example.com"
                autoComplete="off"
              />
            </Field>
          )}
          <Button onClick={() => void create()} disabled={busy} className="sm:mb-6">
            <Link2 className="h-4 w-4" aria-hidden />
            {busy ? 'Creating…' : mail && email.trim() ? 'Create and mail link' : 'Create invite link'}
          </Button>
        </div>
        {created && (
          <div className="flex flex-col gap-2 rounded-lg border border-indigo-200 bg-indigo-50/60 p-3 dark:border-indigo-900 dark:bg-indigo-950/30">
            {created.emailedTo && <p className="text-sm text-neutral-800 dark:text-neutral-200">Mailed to {created.emailedTo}.</p>}
            <CopyField id="invite-link" label="Invite link" value={created.link} />
            <p className="text-xs text-neutral-600 dark:text-neutral-400">
              Copy it now: the link is shown only this once. Whoever opens it can join as {ROLE_LABELS[created.role].toLowerCase()} until{' '}
              {formatDay(created.expiresAt)}.
            </p>
          </div>
        )}
      </div>
    </Card>
  );
}
