import { ApiError } from './api-client';

/** Errors keyed by form field, plus one form-level message for what belongs to no field. */
export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  form?: string;
}

interface IssueLike {
  path?: ReadonlyArray<unknown>;
  message: string;
}

/**
 * The form field an issue's path is about: the longest leading part of the path that names
 * a field, so a nested field (`delegation.maxDepth`) gets its own message and a field that
 * holds a list (`toolIds.2`) gets its items'.
 */
function fieldOf<F extends string>(path: ReadonlyArray<unknown> | undefined, fields: readonly F[]): F | undefined {
  if (!path) return undefined;
  for (let n = path.length; n > 0; n--) {
    const head = path.slice(0, n);
    if (!head.every((p) => typeof p === 'string' || typeof p === 'number')) continue;
    const key = head.join('.');
    if ((fields as readonly string[]).includes(key)) return key as F;
  }
  return undefined;
}

/** Client-side validation: the shared zod schema's issues, first message per field. */
export function issuesToErrors<F extends string>(issues: ReadonlyArray<IssueLike>, fields: readonly F[]): FormErrors<F> {
  const errors: FormErrors<F> = { fields: {} };
  for (const issue of issues) {
    const field = fieldOf(issue.path, fields);
    if (field) errors.fields[field] ??= issue.message;
    else errors.form ??= issue.message;
  }
  return errors;
}

/**
 * Server errors next to the field they are about. The backend names the field either in
 * the zod issues it returns as `details`, or as a message prefix ("subAgentIds: agent …").
 */
export function apiErrorToErrors<F extends string>(err: unknown, fields: readonly F[]): FormErrors<F> {
  if (!(err instanceof ApiError)) return { fields: {}, form: (err as Error)?.message ?? 'Something went wrong' };
  if (Array.isArray(err.details)) {
    const issues = (err.details as IssueLike[]).filter((d) => d && typeof d.message === 'string');
    const mapped = issuesToErrors(issues, fields);
    if (Object.keys(mapped.fields).length > 0) return mapped;
  }
  const match = /^(?:invalid request body: )?([A-Za-z][\w.]*): (.+)$/.exec(err.message);
  const field = match ? fieldOf(match[1]!.split('.'), fields) : undefined;
  if (field && match) return { fields: { [field]: match[2] } as Partial<Record<F, string>> };
  return { fields: {}, form: err.message };
}

export function hasErrors(errors: FormErrors<string>) {
  return Boolean(errors.form) || Object.keys(errors.fields).length > 0;
}
