'use client';

import { api } from '@/lib/api-client';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { RetryAlert } from '../ui/alert';
import { Spinner } from '../ui/spinner';
import { AccountForm } from './account-form';
import { AuthFrame } from './auth-frame';
import { SignInLink } from './sign-in-view';

/**
 * The first visit of a fresh instance: whoever sets Baton up creates the owner account,
 * which owns the default workspace and its starter agents. Once it exists this page only
 * points to sign-in.
 */
export function SetupView() {
  const { data: status, error, reload } = useApiQuery(queryKeys.authStatus(), () => api.auth.status());

  if (error) {
    return (
      <AuthFrame title="Create the owner account">
        <RetryAlert onRetry={() => void reload()}>Could not reach Baton: {error.message}</RetryAlert>
      </AuthFrame>
    );
  }
  if (!status) {
    return (
      <AuthFrame title="Create the owner account">
        <Spinner />
      </AuthFrame>
    );
  }
  if (!status.needsOwner) {
    return (
      <AuthFrame
        title="Baton is set up"
        description="This Baton already has its owner. Sign in with your account, or ask a workspace admin for an invite link."
        footer={<SignInLink>Go to sign in</SignInLink>}
      />
    );
  }
  return (
    <AuthFrame
      title="Create the owner account"
      description={
        <>
          Welcome to Baton. This first account owns the <strong className="font-medium text-neutral-800 dark:text-neutral-200">default</strong> workspace and
          its starter agents. You can invite others afterwards.
        </>
      }
    >
      <AccountForm submitLabel="Create owner account" onCreated={() => window.location.assign('/')} />
    </AuthFrame>
  );
}
