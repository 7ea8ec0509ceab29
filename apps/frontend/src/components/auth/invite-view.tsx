'use client';

import type { AuthStatus, InvitationPreview, Me } from '@baton/schemas';
import { Link2Off } from 'lucide-react';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { ApiError, api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/roles';
import { ssoErrorMessage } from '@/lib/sso-errors';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { Alert, RetryAlert } from '../ui/alert';
import { Button, buttonClasses } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { AccountForm } from './account-form';
import { AuthFrame } from './auth-frame';
import { SignInLink } from './sign-in-view';
import { OrDivider, SsoButton } from './sso-button';

interface InvitePageData {
  invitation: InvitationPreview | null;
  me: Me | null;
  /** Whether single sign-on is offered (null when it could not be asked: the form works without). */
  status: AuthStatus | null;
}

async function loadInvite(token: string): Promise<InvitePageData> {
  const [invitation, me] = await Promise.all([
    api.invitations.preview(token).catch((err: unknown) => {
      if (err instanceof ApiError && err.isNotFound) return null;
      throw err;
    }),
    api.meIfSignedIn(),
  ]);
  const status = me ? null : await api.auth.status().catch(() => null);
  return { invitation, me, status };
}

const workspaceHref = (workspaceId: string) => `/w/${encodeURIComponent(workspaceId)}`;

/**
 * An invite link: which workspace, which role. A new person creates their account with
 * it; someone signed in joins with one click. A used, revoked or expired link says so.
 */
export function InviteView({ token, ssoError }: { token: string; ssoError?: string }) {
  const { data, error, reload } = useApiQuery(queryKeys.invite(token), () => loadInvite(token));
  const invitePath = `/invite/${encodeURIComponent(token)}`;

  if (error) {
    return (
      <AuthFrame title="Invitation">
        <RetryAlert onRetry={() => void reload()}>Could not open this invitation: {error.message}</RetryAlert>
      </AuthFrame>
    );
  }
  if (!data) {
    return (
      <AuthFrame title="Invitation">
        <Spinner label="Opening the invitation…" />
      </AuthFrame>
    );
  }

  const { invitation, me, status } = data;
  if (!invitation) {
    return (
      <AuthFrame
        title="This invite link can’t be used"
        description={
          <div className="flex gap-3">
            <Link2Off className="mt-0.5 h-5 w-5 shrink-0 text-neutral-400" aria-hidden />
            <p>It was used already, revoked, or it has expired (a link works once, for 7 days). Ask a workspace admin for a new one.</p>
          </div>
        }
        footer={
          me ? (
            <Link href="/" className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              Go to Baton
            </Link>
          ) : (
            <SignInLink />
          )
        }
      />
    );
  }

  const already = me?.memberships.find((m) => m.workspaceId === invitation.workspaceId);
  if (already) {
    return (
      <AuthFrame
        title={`You’re already in ${invitation.workspaceName}`}
        description={`You are signed in as ${me!.user.email}, a member of this workspace (${ROLE_LABELS[already.role].toLowerCase()}).`}
      >
        <Link href={workspaceHref(invitation.workspaceId)} className={buttonClasses('primary', 'md', 'w-full')}>
          Open {invitation.workspaceName}
        </Link>
      </AuthFrame>
    );
  }

  const offer = (
    <p>
      You’re invited to <strong className="font-medium text-neutral-900 dark:text-neutral-100">{invitation.workspaceName}</strong> as{' '}
      <strong className="font-medium text-neutral-900 dark:text-neutral-100">{ROLE_LABELS[invitation.role].toLowerCase()}</strong>:{' '}
      {ROLE_DESCRIPTIONS[invitation.role]}.
    </p>
  );

  if (me) return <AcceptInvitation token={token} invitation={invitation} me={me} offer={offer} />;

  return (
    <AuthFrame
      title={`Join ${invitation.workspaceName}`}
      description={
        <>
          {offer}
          <p className="mt-1">Create your account to join.</p>
        </>
      }
      footer={
        <>
          Already have an account? <SignInLink next={invitePath} />
        </>
      }
    >
      {ssoError && (
        <div className="mb-4">
          <Alert>{ssoErrorMessage(ssoError, status?.sso?.label)}</Alert>
        </div>
      )}
      {status?.sso && (
        <>
          <SsoButton label={status.sso.label} action="Join" inviteToken={token} next={workspaceHref(invitation.workspaceId)} />
          <OrDivider />
        </>
      )}
      <AccountForm inviteToken={token} submitLabel="Create account and join" onCreated={() => window.location.assign(workspaceHref(invitation.workspaceId))} />
    </AuthFrame>
  );
}

function AcceptInvitation({ token, invitation, me, offer }: { token: string; invitation: InvitationPreview; me: Me; offer: ReactNode }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function accept() {
    setBusy(true);
    setError(undefined);
    try {
      const membership = await api.invitations.accept(token);
      window.location.assign(workspaceHref(membership.workspaceId));
    } catch (err) {
      setError(authErrorMessage(err));
      setBusy(false);
    }
  }

  async function switchAccount() {
    await api.auth.signOut().catch(() => undefined);
    window.location.reload();
  }

  return (
    <AuthFrame
      title={`Join ${invitation.workspaceName}`}
      description={offer}
      footer={
        <>
          Not {me.user.name}?{' '}
          <button
            type="button"
            onClick={() => void switchAccount()}
            className="cursor-pointer font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Sign out and use another account
          </button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {error && <Alert>{error}</Alert>}
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          Signed in as <span className="font-medium text-neutral-900 dark:text-neutral-100">{me.user.name}</span> ({me.user.email}).
        </p>
        <Button onClick={() => void accept()} disabled={busy} className="w-full">
          {busy ? 'Joining…' : `Join ${invitation.workspaceName}`}
        </Button>
      </div>
    </AuthFrame>
  );
}
