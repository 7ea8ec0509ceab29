import { signUpSchema, type SignUp } from '@baton/schemas';
import { issuesToErrors, type FormErrors } from '@/lib/field-errors';

export const ACCOUNT_FIELDS = ['name', 'email', 'password', 'confirm'] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];
export type AccountValues = Record<AccountField, string>;
const LABELS: Record<AccountField, string> = { name: 'Name', email: 'Email', password: 'Password', confirm: 'Password' };

/**
 * The request to send, or every problem at once: a person who left the password short and the
 * confirmation empty is told both, not one per try.
 */
export function checkAccountForm(values: AccountValues, inviteToken?: string): { request: SignUp } | { errors: FormErrors<AccountField> } {
  const parsed = signUpSchema.safeParse({ name: values.name, email: values.email.trim(), password: values.password, inviteToken });
  const errors: FormErrors<AccountField> = parsed.success ? { fields: {} } : issuesToErrors(parsed.error.issues, ACCOUNT_FIELDS);
  for (const field of ACCOUNT_FIELDS) if (errors.fields[field]) errors.fields[field] = `${LABELS[field]} ${errors.fields[field]}`;
  if (values.confirm === '') errors.fields.confirm = 'Type the password again';
  else if (values.confirm !== values.password) errors.fields.confirm = 'The two passwords are not the same';
  return parsed.success && !errors.fields.confirm ? { request: parsed.data } : { errors };
}
