'use client';

import { PASSWORD_MIN_LENGTH, resetPasswordSchema } from '@baton/schemas';
import { CheckCircle2 } from 'lucide-react';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { ApiError, api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { Alert } from '../ui/alert';
import { Button, buttonClasses } from '../ui/button';
import { AuthFrame } from './auth-frame';
import { NewPasswordFields, PASSWORDS_DIFFER } from './new-password-fields';
import { SignInLink } from './sign-in-view';

type Errors = { password?: string; confirm?: string; form?: string };

/**
 * A reset link (from a workspace admin, or a mail): the new password, typed twice. The link
 * works once; afterwards every session of the account is signed out and the person signs in.
 */
export function ResetPasswordView({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [dead, setDead] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = resetPasswordSchema.safeParse({ token, newPassword: password });
    if (!parsed.success) {
      const issue = parsed.error.issues.find((i) => i.path[0] === 'newPassword');
      return setErrors(issue ? { password: `Password ${issue.message}` } : { form: 'This reset link is not valid: ask a workspace admin for a new one.' });
    }
    if (password !== confirm) return setErrors({ confirm: PASSWORDS_DIFFER });
    setErrors({});
    setBusy(true);
    try {
      await api.auth.resetPassword(parsed.data);
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_token') setDead(true);
      else setErrors({ form: authErrorMessage(err) });
      setBusy(false);
    }
  }

  if (done) {
    return (
      <AuthFrame
        title="Your password is set"
        description={
          <div className="flex gap-3">
            <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden />
            <p>Sign in with your new password. Every device that was signed in to your account has been signed out.</p>
          </div>
        }
      >
        <Link href="/sign-in" className={buttonClasses('primary', 'md', 'w-full')}>
          Sign in
        </Link>
      </AuthFrame>
    );
  }
  if (dead) {
    return (
      <AuthFrame
        title="This reset link can’t be used"
        description="It was used already, a newer link replaced it, or it has expired (a link works once, for an hour). Ask a workspace admin for a new one."
        footer={<SignInLink />}
      />
    );
  }

  const hint = `At least ${PASSWORD_MIN_LENGTH} characters. A few words you will remember make a good one.`;
  return (
    <AuthFrame
      title="Set a new password"
      description="Choose the password you will sign in with from now on."
      footer={<SignInLink>Back to sign in</SignInLink>}
    >
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {errors.form && <Alert>{errors.form}</Alert>}
        <NewPasswordFields
          id="reset-password"
          label="New password"
          confirmLabel="Confirm password"
          hint={hint}
          password={password}
          confirm={confirm}
          errors={errors}
          onChange={(field, value) => {
            if (field === 'password') setPassword(value);
            else setConfirm(value);
            setErrors((e) => ({ ...e, confirm: undefined, ...(field === 'password' ? { password: undefined } : {}) }));
          }}
          autoFocus
        />
        <Button type="submit" disabled={busy} className="mt-1 w-full">
          {busy ? 'Setting…' : 'Set password'}
        </Button>
      </form>
    </AuthFrame>
  );
}
