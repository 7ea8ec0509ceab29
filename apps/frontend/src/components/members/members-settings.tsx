'use client';

import { isAdminRole, type Invitation, type Member } from '@baton/schemas';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { ROLE_LABELS } from '@/lib/roles';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { useMembership, useSession } from '@/lib/session';
import { ConfirmDialog } from '../confirm-dialog';
import { AdminsOnly } from '../ui/admins-only';
import { RetryAlert } from '../ui/alert';
import { Card } from '../ui/card';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';
import { InviteCard } from './invite-card';
import { MemberList, type MemberAction } from './member-list';
import { PendingInvitations } from './pending-invitations';
import { ResetLinkDialog } from './reset-link-dialog';

type Confirming = Exclude<MemberAction, { kind: 'role' } | { kind: 'reset' }> | { kind: 'role'; member: Member; role: 'owner' };

/** Who is in the workspace. Admins invite, change roles and remove; everyone sees the list and can leave. */
export function MembersSettings({ workspaceId }: { workspaceId: string }) {
  const membership = useMembership(workspaceId)!;
  const me = useSession((s) => s.me!);
  const reloadSession = useSession((s) => s.reload);
  const admin = isAdminRole(membership.role);
  const members = useApiQuery(queryKeys.members(workspaceId), () => api.members.list(workspaceId));
  const invitations = useApiQuery([...queryKeys.invitations(workspaceId), admin], () =>
    admin ? api.invitations.list(workspaceId) : Promise.resolve([] as Invitation[]),
  );
  // Whether the server sends mail: invitations can then be mailed too.
  const authStatus = useApiQuery(queryKeys.authStatus(), () => api.auth.status());
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [resetting, setResetting] = useState<Member | null>(null);

  function replaceMember(updated: Member) {
    members.setData((list = []) => list.map((m) => (m.userId === updated.userId ? updated : m)));
  }

  async function changeRole(member: Member, role: Member['role']) {
    try {
      replaceMember(await api.members.update(workspaceId, member.userId, { role }));
      toast.success(`${member.name} is now ${ROLE_LABELS[role].toLowerCase()}`);
    } catch (err) {
      toast.error(`Could not change the role: ${(err as Error).message}`);
    }
  }

  function onAction(action: MemberAction) {
    if (action.kind === 'role' && action.role !== 'owner') return void changeRole(action.member, action.role);
    if (action.kind === 'reset') return setResetting(action.member);
    setConfirming(action as Confirming);
  }

  async function confirm(action: Confirming) {
    if (action.kind === 'role') {
      await api.members.update(workspaceId, action.member.userId, { role: 'owner' });
      // The old owner is an admin now: both rows and this page's rights change.
      await Promise.all([members.reload(), reloadSession()]);
      toast.success(`${action.member.name} owns ${membership.workspaceName} now`);
    } else if (action.kind === 'remove') {
      await api.members.remove(workspaceId, action.member.userId);
      members.setData((list = []) => list.filter((m) => m.userId !== action.member.userId));
      toast.success(`Removed ${action.member.name}`);
    } else {
      await api.members.remove(workspaceId, action.member.userId);
      // A fresh start: `/` opens the next workspace, or offers to create one.
      window.location.assign('/');
    }
  }

  const dialog = confirmText(confirming, membership.workspaceName);
  return (
    <PageContainer>
      <PageHeader
        title="Members"
        description={`People in ${membership.workspaceName} and what they may do. Chats are private to the person who started them.`}
      />
      <div className="flex flex-col gap-4">
        {admin ? (
          <>
            <InviteCard
              workspaceId={workspaceId}
              mail={authStatus.data?.mail ?? false}
              onCreated={(inv) => invitations.setData((list = []) => [...list, inv])}
            />
            <PendingInvitations
              workspaceId={workspaceId}
              invitations={invitations.data}
              error={invitations.error}
              onRevoked={(id) => invitations.setData((list = []) => list.filter((i) => i.id !== id))}
            />
          </>
        ) : (
          <Card title="Invite people">
            <AdminsOnly>
              Only workspace admins can invite people, change roles or remove members. You are a {ROLE_LABELS[membership.role].toLowerCase()}: ask an admin or
              the owner.
            </AdminsOnly>
          </Card>
        )}
        <Card title="People" description={members.data ? `${members.data.length} ${members.data.length === 1 ? 'member' : 'members'}` : undefined}>
          {members.error && <RetryAlert onRetry={() => void members.reload()}>Could not load members: {members.error.message}</RetryAlert>}
          {!members.data && !members.error && <Spinner label="Loading members…" />}
          {members.data && <MemberList members={members.data} me={membership} myUserId={me.user.id} onAction={onAction} />}
        </Card>
      </div>
      <ResetLinkDialog workspaceId={workspaceId} member={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={dialog.title}
        description={dialog.description}
        confirmLabel={dialog.confirmLabel}
        onConfirm={() => (confirming ? confirm(confirming) : Promise.resolve())}
      />
    </PageContainer>
  );
}

function confirmText(action: Confirming | null, workspaceName: string) {
  if (action?.kind === 'role') {
    return {
      title: `Make ${action.member.name} the owner?`,
      description: `${action.member.name} will own ${workspaceName}. You stay in it as an admin; only the new owner can hand it over again.`,
      confirmLabel: 'Hand over',
    };
  }
  if (action?.kind === 'leave') {
    return {
      title: `Leave ${workspaceName}?`,
      description: 'You lose access to its agents and to your chats in it, and your API keys for it stop working. An admin can invite you again.',
      confirmLabel: 'Leave workspace',
    };
  }
  return {
    title: `Remove ${action?.member.name ?? ''}?`,
    description: `They lose access to ${workspaceName} and their API keys for it stop working. Their chats stay stored, but nobody can open them.`,
    confirmLabel: 'Remove member',
  };
}
