import { providerCreateSchema, providerUpdateSchema, secretOriginChanged, takesPdfFiles, type PdfInput, type Provider } from '@baton/schemas';
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
  /** Context window per model id as typed ('' = Baton's default for it); ids no longer listed are not saved. */
  contextWindows: Record<string, string>;
  /** How PDFs reach the provider's models. */
  pdfInput: PdfInput;
}

export const PROVIDER_FIELDS = ['name', 'baseUrl', 'apiKey', 'modelIds', 'contextWindows', 'pdfInput'] as const;
export type ProviderField = (typeof PROVIDER_FIELDS)[number];
export type ProviderFormErrors = FormErrors<ProviderField>;

const labels: Record<ProviderField, string> = {
  name: 'Name',
  baseUrl: 'Base URL',
  apiKey: 'API key',
  modelIds: 'Model ids',
  contextWindows: 'Context windows',
  pdfInput: 'PDF input',
};

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
    contextWindows: Object.fromEntries(Object.entries(provider?.contextWindows ?? {}).map(([id, n]) => [id, String(n)])),
    pdfInput: provider?.pdfInput ?? 'auto',
  };
}

/** Windows a provider's model list reported, put in where nothing was typed (what a person typed wins). */
export function withReportedWindows(typed: Record<string, string>, reported: Record<string, number>): Record<string, string> {
  const next = { ...typed };
  for (const [id, n] of Object.entries(reported)) if (!next[id]?.trim()) next[id] = String(n);
  return next;
}

/** "128,000" / "128000" → 128000; '' → undefined (the default); anything else → NaN, which the schema refuses. */
function parseWindow(text: string | undefined): number | undefined {
  const trimmed = text?.replace(/[\s,_]/g, '') ?? '';
  if (!trimmed) return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The windows of the listed models that were given one; what a model keeps when it is dropped from the list does not matter. */
function contextWindowsOf(values: ProviderFormValues, modelIds: string[]): Record<string, number> {
  return Object.fromEntries(
    modelIds.flatMap((id) => {
      const n = parseWindow(values.contextWindows[id]);
      return n === undefined ? [] : [[id, n]];
    }),
  );
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

export const KEY_FOR_NEW_HOST_MESSAGE =
  'The base URL now points to another host: type the API key again for it, or tick “Remove the stored key”. A stored key is only sent to the host it was entered for.';

/**
 * Whether saving would move a stored key to another host (scheme, host or port): the server
 * refuses that (`secret_required`), so the form asks for the key first.
 */
export function storedKeyWouldMove(values: ProviderFormValues, provider?: Provider): boolean {
  return Boolean(provider?.hasApiKey) && !values.clearApiKey && !values.apiKey && secretOriginChanged(provider!.baseUrl, values.baseUrl);
}

/**
 * The request body, checked with the shared schema. The key is write-only: an update
 * sends `apiKey` only to replace it (a new value) or to remove it (`null`).
 */
export function buildProviderInput(values: ProviderFormValues, mode: 'create' | 'update', provider?: Provider) {
  const candidate: Record<string, unknown> = {
    name: values.name,
    baseUrl: values.baseUrl.trim(),
    modelIds: parseModelIds(values.modelIds),
    pdfInput: values.pdfInput,
  };
  candidate.contextWindows = contextWindowsOf(values, candidate.modelIds as string[]);
  const badWindow = Object.entries(candidate.contextWindows as Record<string, number>).find(([, n]) => !Number.isInteger(n) || n < 256 || n > 10_000_000);
  if (badWindow) {
    return {
      input: undefined,
      errors: {
        fields: { contextWindows: `The context window of ${badWindow[0]} must be a whole number of tokens from 256 to 10,000,000.` },
      } as ProviderFormErrors,
    };
  }
  if (mode === 'update' && storedKeyWouldMove(values, provider)) {
    return { input: undefined, errors: { fields: { apiKey: KEY_FOR_NEW_HOST_MESSAGE } } as ProviderFormErrors };
  }
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

export const PDF_INPUT_OPTIONS: { value: PdfInput; label: string }[] = [
  { value: 'auto', label: 'Automatic' },
  { value: 'file', label: 'As a file (the provider reads PDFs)' },
  { value: 'text', label: 'As extracted text' },
];

/** What the chosen setting means for this base URL: "Automatic" is said as what it picks. */
export function pdfInputHint(values: Pick<ProviderFormValues, 'pdfInput' | 'baseUrl'>): string {
  if (values.pdfInput === 'file') return 'PDFs in messages are sent as files. Choose this only if the server reads PDF file parts (OpenAI does).';
  if (values.pdfInput === 'text')
    return 'Baton sends the text it extracts from each PDF (a scanned PDF has none): for servers that refuse or ignore PDF files.';
  return takesPdfFiles('auto', values.baseUrl.trim())
    ? 'Automatic: OpenAI’s API reads PDFs, so they are sent as files.'
    : 'Automatic: this server gets the text Baton extracts from each PDF; only OpenAI’s own API (api.openai.com) gets PDF files.';
}
