'use client';

import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';

/**
 * "Sign in with <label>": off to the operator's OpenID Connect provider, and back to `next`.
 * From an invite link, `inviteToken` lets a new account join its workspace.
 */
export function SsoButton({ label, next, inviteToken, action = 'Sign in' }: { label: string; next?: string; inviteToken?: string; action?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function start() {
    setBusy(true);
    setError(undefined);
    try {
      const { url } = await api.auth.startSso({ ...(next && next !== '/' ? { next } : {}), ...(inviteToken ? { inviteToken } : {}) });
      window.location.assign(url);
    } catch (err) {
      setError(authErrorMessage(err));
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {error && <Alert>{error}</Alert>}
      <Button type="button" variant="secondary" onClick={() => void start()} disabled={busy} className="w-full">
        <KeyRound className="h-4 w-4" aria-hidden />
        {busy ? `Opening ${label}…` : `${action} with ${label}`}
      </Button>
    </div>
  );
}

/** The line between single sign-on and the password form. */
export function OrDivider() {
  return (
    <div className="my-4 flex items-center gap-3 text-xs text-neutral-500" aria-hidden>
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
      or
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
    </div>
  );
}
