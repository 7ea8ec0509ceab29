'use client';

import { type AuthStatus, forgotPasswordSchema } from '@baton/schemas';
import { MailCheck } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { AuthFrame } from './auth-frame';
import { SignInLink } from './sign-in-view';

/**
 * "Forgot password?": a reset link by mail when the server sends mail; otherwise the way
 * that always works, a reset link from a workspace admin.
 */
export function ForgotPasswordView() {
  const [status, setStatus] = useState<AuthStatus | null>();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<{ field?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string>();

  useEffect(() => {
    api.auth.status().then(setStatus, () => setStatus(null));
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = forgotPasswordSchema.safeParse({ email: email.trim() });
    if (!parsed.success) return setError({ field: 'Email must be an email address' });
    setError({});
    setBusy(true);
    try {
      await api.auth.requestPasswordReset(parsed.data);
      setSentTo(parsed.data.email);
    } catch (err) {
      setError({ form: authErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  if (status === undefined) {
    return (
      <AuthFrame title="Forgot password">
        <Spinner label="Loading…" />
      </AuthFrame>
    );
  }
  if (!status?.mail) {
    return (
      <AuthFrame
        title="Forgot password"
        description="This Baton server sends no mail. Ask a workspace admin: under Members they can make you a reset link, which you open to set a new password."
        footer={<SignInLink>Back to sign in</SignInLink>}
      />
    );
  }
  if (sentTo) {
    return (
      <AuthFrame
        title="Check your mail"
        description={
          <div className="flex gap-3">
            <MailCheck className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden />
            <p>
              If <strong className="font-medium text-neutral-900 dark:text-neutral-100">{sentTo}</strong> has a Baton account, a reset link is on its way. It
              works once, for an hour.
            </p>
          </div>
        }
        footer={<SignInLink>Back to sign in</SignInLink>}
      />
    );
  }
  return (
    <AuthFrame title="Forgot password" description="We’ll mail you a link to set a new password." footer={<SignInLink>Back to sign in</SignInLink>}>
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {error.form && <Alert>{error.form}</Alert>}
        <Field id="forgot-email" label="Email" error={error.field}>
          <Input
            {...controlProps('forgot-email', { error: error.field })}
            type="email"
            value={email}
            onChange={(ev) => setEmail(ev.target.value)}
            autoComplete="email"
            autoFocus
          />
        </Field>
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? 'Sending…' : 'Send reset link'}
        </Button>
      </form>
    </AuthFrame>
  );
}
