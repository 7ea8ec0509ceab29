'use client';

import { type AuthStatus, signInSchema } from '@baton/schemas';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { issuesToErrors, type FormErrors } from '@/lib/field-errors';
import { safeNext, signInHref } from '@/lib/sign-in-redirect';
import { ssoErrorMessage } from '@/lib/sso-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { AuthFrame } from './auth-frame';
import { OrDivider, SsoButton } from './sso-button';

const FIELDS = ['email', 'password'] as const;
type SignInErrors = FormErrors<(typeof FIELDS)[number]>;
const LABELS = { email: 'Email', password: 'Password' } as const;

/**
 * Email and password, and single sign-on when the server offers it. A fresh instance has no
 * account to sign in to: the visitor goes to create the owner instead. Someone already
 * signed in goes straight on. `ssoError`: why single sign-on sent the browser back here.
 */
export function SignInView({ next, ssoError }: { next?: string; ssoError?: string }) {
  const router = useRouter();
  const destination = safeNext(next) ?? '/';
  const [checking, setChecking] = useState(true);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<SignInErrors>({ fields: {} });
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<AuthStatus>();

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const [status, me] = await Promise.all([api.auth.status(), api.meIfSignedIn()]);
        if (cancelled) return;
        if (status.needsOwner) return router.replace('/setup');
        if (me) return window.location.replace(destination);
        setStatus(status);
      } catch {
        // The form works without knowing; signing in will say what is wrong.
      }
      if (!cancelled) setChecking(false);
    })();
    return () => {
      cancelled = true;
    };
  }, [router, destination]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = signInSchema.safeParse({ email: email.trim(), password });
    if (!parsed.success) {
      const found = issuesToErrors(parsed.error.issues, FIELDS);
      for (const field of FIELDS) if (found.fields[field]) found.fields[field] = `${LABELS[field]} ${found.fields[field]}`;
      return setErrors(found);
    }
    setErrors({ fields: {} });
    setBusy(true);
    try {
      await api.auth.signIn(parsed.data);
      // A full load: every page starts from the new session.
      window.location.assign(destination);
    } catch (err) {
      setErrors({ fields: {}, form: authErrorMessage(err) });
      setBusy(false);
    }
  }

  if (checking) {
    return (
      <AuthFrame title="Sign in">
        <Spinner label="Checking your session…" />
      </AuthFrame>
    );
  }

  const e = errors.fields;
  const sso = status?.sso;
  const returned = ssoErrorMessage(ssoError, sso?.label);
  return (
    <AuthFrame title="Sign in" description="Welcome back. Sign in to chat with your agents." footer="New here? Ask a workspace admin for an invite link.">
      {returned && !errors.form && (
        <div className="mb-4">
          <Alert>{returned}</Alert>
        </div>
      )}
      {sso && (
        <>
          <SsoButton label={sso.label} next={destination} />
          <OrDivider />
        </>
      )}
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {errors.form && <Alert>{errors.form}</Alert>}
        <Field id="sign-in-email" label="Email" error={e.email}>
          <Input
            {...controlProps('sign-in-email', { error: e.email })}
            type="email"
            value={email}
            onChange={(ev) => setEmail(ev.target.value)}
            autoComplete="email"
            autoFocus
          />
        </Field>
        <Field id="sign-in-password" label="Password" error={e.password}>
          <Input
            {...controlProps('sign-in-password', { error: e.password })}
            type="password"
            value={password}
            onChange={(ev) => setPassword(ev.target.value)}
            autoComplete="current-password"
          />
        </Field>
        {status?.mail && (
          <Link href="/forgot-password" className="-mt-2 self-end text-sm text-indigo-600 hover:underline dark:text-indigo-400">
            Forgot password?
          </Link>
        )}
        <Button type="submit" disabled={busy} className="mt-1 w-full">
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthFrame>
  );
}

/** For pages a signed-in person may land on by mistake. */
export function SignInLink({ next, children = 'Sign in' }: { next?: string; children?: string }) {
  return (
    <Link href={signInHref(next)} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
      {children}
    </Link>
  );
}
