'use client';

import { changePasswordSchema, PASSWORD_MIN_LENGTH } from '@baton/schemas';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';
import { NewPasswordFields, PASSWORDS_DIFFER } from '../auth/new-password-fields';

type Errors = { current?: string; password?: string; confirm?: string; form?: string };

/** Your password: the current one first, the new one twice. Other devices are signed out; this one stays. */
export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Change password"
      description="Every other device signed in to your account is signed out; this one stays signed in."
    >
      {/* Mounted only while open: closing forgets what was typed. */}
      {open && <ChangePasswordForm onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = changePasswordSchema.safeParse({ currentPassword: current, newPassword: password });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'currentPassword') found.current ??= `Current password ${issue.message}`;
        if (issue.path[0] === 'newPassword') found.password ??= `New password ${issue.message}`;
      }
      return setErrors(found);
    }
    if (password !== confirm) return setErrors({ confirm: PASSWORDS_DIFFER });
    setErrors({});
    setBusy(true);
    try {
      await api.auth.changePassword(parsed.data);
      toast.success('Password changed. Your other devices were signed out.');
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_password') setErrors({ current: 'The current password is wrong.' });
      else setErrors({ form: authErrorMessage(err) });
      setBusy(false);
    }
  }

  const hint = `At least ${PASSWORD_MIN_LENGTH} characters.`;
  return (
    <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field id="change-current" label="Current password" error={errors.current}>
        <Input
          {...controlProps('change-current', { error: errors.current })}
          type="password"
          value={current}
          onChange={(ev) => {
            setCurrent(ev.target.value);
            setErrors((e) => ({ ...e, current: undefined }));
          }}
          autoComplete="current-password"
          autoFocus
        />
      </Field>
      <NewPasswordFields
        id="change-new"
        label="New password"
        confirmLabel="Confirm new password"
        hint={hint}
        password={password}
        confirm={confirm}
        errors={errors}
        onChange={(field, value) => {
          if (field === 'password') setPassword(value);
          else setConfirm(value);
          setErrors((e) => ({ ...e, confirm: undefined, ...(field === 'password' ? { password: undefined } : {}) }));
        }}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}
