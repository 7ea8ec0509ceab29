import { providerCreateSchema, providerUpdateSchema, type Provider } from '@baton/schemas';
import { issuesToErrors, type FormErrors } from '@/lib/field-errors';

export interface ProviderFormValues {
  name: string;
  baseUrl: string;
  /** '' = keep the stored key (or none for a new provider). */
  apiKey: string;
  /** Drop the stored key on save. */
  clearApiKey: boolean;
  /** Model ids separated by commas or newlines. */
  modelIds: string;
}

export const PROVIDER_FIELDS = ['name', 'baseUrl', 'apiKey', 'modelIds'] as const;
export type ProviderField = (typeof PROVIDER_FIELDS)[number];
export type ProviderFormErrors = FormErrors<ProviderField>;

const labels: Record<ProviderField, string> = { name: 'Name', baseUrl: 'Base URL', apiKey: 'API key', modelIds: 'Model ids' };

export function providerFieldMessage(field: ProviderField, message: string) {
  if (/^must\b/.test(message)) return `${labels[field]} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

export function toProviderFormValues(provider?: Provider): ProviderFormValues {
  return {
    name: provider?.name ?? '',
    baseUrl: provider?.baseUrl ?? '',
    apiKey: '',
    clearApiKey: false,
    modelIds: provider?.modelIds.join('\n') ?? '',
  };
}

/** "gpt-4o, gpt-4o-mini\nllama3" → ["gpt-4o", "gpt-4o-mini", "llama3"], without blanks or repeats. */
export function parseModelIds(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The request body, checked with the shared schema. The key is write-only: an update
 * sends `apiKey` only to replace it (a new value) or to remove it (`null`).
 */
export function buildProviderInput(values: ProviderFormValues, mode: 'create' | 'update') {
  const candidate: Record<string, unknown> = {
    name: values.name,
    baseUrl: values.baseUrl.trim(),
    modelIds: parseModelIds(values.modelIds),
  };
  if (values.apiKey) candidate.apiKey = values.apiKey;
  else if (mode === 'update' && values.clearApiKey) candidate.apiKey = null;
  const parsed = (mode === 'create' ? providerCreateSchema : providerUpdateSchema).safeParse(candidate);
  if (parsed.success) return { input: parsed.data, errors: { fields: {} } as ProviderFormErrors };
  const errors = issuesToErrors(parsed.error.issues, PROVIDER_FIELDS);
  for (const field of PROVIDER_FIELDS) {
    const message = errors.fields[field];
    if (message) errors.fields[field] = providerFieldMessage(field, message);
  }
  return { input: undefined, errors };
}
