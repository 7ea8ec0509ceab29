'use client';

import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';

export const PASSWORDS_DIFFER = 'The two passwords differ: type the same one twice.';

export interface NewPasswordErrors {
  password?: string;
  confirm?: string;
}

/**
 * A new password typed twice (a reset link's page, Change password). Typing in the first box
 * clears both boxes' errors, typing in the second only its own.
 */
export function NewPasswordFields({
  id,
  label,
  confirmLabel,
  hint,
  password,
  confirm,
  errors,
  onChange,
  autoFocus = false,
}: {
  id: string;
  label: string;
  confirmLabel: string;
  hint: string;
  password: string;
  confirm: string;
  errors: NewPasswordErrors;
  onChange: (field: 'password' | 'confirm', value: string) => void;
  autoFocus?: boolean;
}) {
  const confirmId = `${id}-confirm`;
  return (
    <>
      <Field id={id} label={label} hint={hint} error={errors.password}>
        <Input
          {...controlProps(id, { hint, error: errors.password })}
          type="password"
          value={password}
          onChange={(ev) => onChange('password', ev.target.value)}
          autoComplete="new-password"
          autoFocus={autoFocus}
        />
      </Field>
      <Field id={confirmId} label={confirmLabel} error={errors.confirm}>
        <Input
          {...controlProps(confirmId, { error: errors.confirm })}
          type="password"
          value={confirm}
          onChange={(ev) => onChange('confirm', ev.target.value)}
          autoComplete="new-password"
        />
      </Field>
    </>
  );
}
