'use client';

import { useState, type FormEvent } from 'react';
import { api } from '@/lib/api-client';
import { authErrorMessage } from '@/lib/auth-errors';
import { apiErrorToErrors, type FormErrors } from '@/lib/field-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';
import { ACCOUNT_FIELDS as FIELDS, type AccountField as Fields, checkAccountForm } from './account-form-values';

/**
 * Creates an account and signs it in: the owner's on a fresh instance, or an invited
 * person's (`inviteToken`). The password is typed twice; nothing is filled in for them.
 */
export function AccountForm({ inviteToken, submitLabel, onCreated }: { inviteToken?: string; submitLabel: string; onCreated: () => void }) {
  const [values, setValues] = useState({ name: '', email: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<FormErrors<Fields>>({ fields: {} });
  const [busy, setBusy] = useState(false);

  // Editing a field clears what was said about it (a new password also settles the old mismatch).
  const set = (field: Fields) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((current) => {
      const fields = { ...current.fields };
      delete fields[field];
      if (field === 'password') delete fields.confirm;
      return { ...current, fields };
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkAccountForm(values, inviteToken);
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({ fields: {} });
    setBusy(true);
    try {
      await api.auth.signUp(checked.request);
      onCreated();
    } catch (err) {
      const mapped = apiErrorToErrors(err, FIELDS);
      setErrors(mapped.form ? { ...mapped, form: authErrorMessage(err) } : mapped);
      setBusy(false);
    }
  }

  const e = errors.fields;
  const passwordHint = 'At least 8 characters. A few words you will remember make a good one.';
  return (
    <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field id="account-name" label="Name" error={e.name}>
        <Input
          {...controlProps('account-name', { error: e.name })}
          value={values.name}
          onChange={(ev) => set('name')(ev.target.value)}
          autoComplete="name"
          autoFocus
        />
      </Field>
      <Field id="account-email" label="Email" error={e.email}>
        <Input
          {...controlProps('account-email', { error: e.email })}
          type="email"
          value={values.email}
          onChange={(ev) => set('email')(ev.target.value)}
          autoComplete="email"
        />
      </Field>
      <Field id="account-password" label="Password" hint={passwordHint} error={e.password}>
        <Input
          {...controlProps('account-password', { hint: passwordHint, error: e.password })}
          type="password"
          value={values.password}
          onChange={(ev) => set('password')(ev.target.value)}
          autoComplete="new-password"
        />
      </Field>
      <Field id="account-confirm" label="Confirm password" error={e.confirm}>
        <Input
          {...controlProps('account-confirm', { error: e.confirm })}
          type="password"
          value={values.confirm}
          onChange={(ev) => set('confirm')(ev.target.value)}
          autoComplete="new-password"
        />
      </Field>
      <Button type="submit" disabled={busy} className="mt-1 w-full">
        {busy ? 'Creating your account…' : submitLabel}
      </Button>
    </form>
  );
}
