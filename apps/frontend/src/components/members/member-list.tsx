'use client';

import { isAdminRole, type Member, type Membership, type WorkspaceRole } from '@baton/schemas';
import { KeyRound, LogOut, UserMinus } from 'lucide-react';
import { formatDay } from '@/lib/format-date';
import { ROLE_LABELS } from '@/lib/roles';
import { Button } from '../ui/button';
import { Select } from '../ui/input';

export type MemberAction =
  | { kind: 'role'; member: Member; role: WorkspaceRole }
  | { kind: 'remove'; member: Member }
  | { kind: 'leave'; member: Member }
  | { kind: 'reset'; member: Member };

/**
 * The workspace's members with their roles. Admins change roles, make password reset links
 * and remove people; the owner can also hand the workspace over; anyone but the owner can leave.
 */
export function MemberList({
  members,
  me,
  myUserId,
  onAction,
}: {
  members: Member[];
  me: Membership;
  myUserId: string;
  onAction: (action: MemberAction) => void;
}) {
  return (
    <ul aria-label="Members" className="divide-y divide-neutral-200 dark:divide-neutral-800">
      {members.map((member) => (
        <MemberRow key={member.userId} member={member} me={me} self={member.userId === myUserId} onAction={onAction} />
      ))}
    </ul>
  );
}

function MemberRow({ member, me, self, onAction }: { member: Member; me: Membership; self: boolean; onAction: (action: MemberAction) => void }) {
  const admin = isAdminRole(me.role);
  // The owner's role is theirs to hand over, nobody else's to change; your own role is changed by another admin.
  const canChangeRole = admin && !self && member.role !== 'owner';
  const canRemove = admin && !self && member.role !== 'owner';
  // Never the owner's: a reset link hands over the account (the server also refuses other workspaces' admins, saying why).
  const canReset = admin && !self && member.role !== 'owner';
  return (
    <li aria-label={member.name} className="flex flex-wrap items-center gap-3 py-3">
      <span
        className="grid h-9 w-9 shrink-0 place-items-center rounded-full bg-neutral-100 text-xs font-semibold text-neutral-700 dark:bg-neutral-800 dark:text-neutral-200"
        aria-hidden
      >
        {member.name.trim().charAt(0).toUpperCase() || '?'}
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 truncate text-sm font-medium text-neutral-900 dark:text-neutral-100">
          {member.name}
          {self && (
            <span className="rounded-full bg-indigo-50 px-1.5 py-0.5 text-[11px] font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">You</span>
          )}
        </p>
        <p className="truncate text-xs text-neutral-500">
          {member.email} · joined {formatDay(member.joinedAt)}
        </p>
      </div>
      <div className="flex items-center gap-1">
        {canChangeRole ? (
          <Select
            aria-label={`Role of ${member.name}`}
            value={member.role}
            onChange={(ev) => onAction({ kind: 'role', member, role: ev.target.value as WorkspaceRole })}
            className="h-8 w-auto pr-8"
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {me.role === 'owner' && <option value="owner">Owner (hand over)</option>}
          </Select>
        ) : (
          <span className="rounded-full bg-neutral-100 px-2.5 py-1 text-xs font-medium text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
            {ROLE_LABELS[member.role]}
          </span>
        )}
        {canReset && (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Password reset link for ${member.name}`}
            title="Password reset link"
            onClick={() => onAction({ kind: 'reset', member })}
          >
            <KeyRound className="h-4 w-4" aria-hidden />
          </Button>
        )}
        {canRemove && (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${member.name}`}
            title="Remove from workspace"
            onClick={() => onAction({ kind: 'remove', member })}
          >
            <UserMinus className="h-4 w-4" aria-hidden />
          </Button>
        )}
        {self && member.role !== 'owner' && (
          <Button variant="ghost" size="sm" onClick={() => onAction({ kind: 'leave', member })}>
            <LogOut className="h-4 w-4" aria-hidden />
            Leave
          </Button>
        )}
      </div>
    </li>
  );
}
