'use client';

import type { Provider } from '@baton/schemas';
import { KeyRound } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { apiErrorToErrors } from '@/lib/field-errors';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { Input, Select, Textarea } from '../ui/input';
import { ProviderConnectionTest } from './provider-connection-test';
import { ProviderContextWindows } from './provider-context-windows';
import {
  buildProviderInput,
  KEY_FOR_NEW_HOST_MESSAGE,
  parseModelIds,
  PDF_INPUT_OPTIONS,
  pdfInputHint,
  PROVIDER_FIELDS,
  providerFieldMessage,
  toProviderFormValues,
  type ProviderFormErrors,
  type ProviderFormValues,
  storedKeyWouldMove,
  withReportedWindows,
} from './provider-form-values';

interface ProviderFormDialogProps {
  workspaceId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The provider to edit; absent to add one. */
  provider?: Provider;
  onSaved: (provider: Provider) => void;
}

export function ProviderFormDialog({ workspaceId, open, onOpenChange, provider, onSaved }: ProviderFormDialogProps) {
  const [values, setValues] = useState<ProviderFormValues>(() => toProviderFormValues(provider));
  const [errors, setErrors] = useState<ProviderFormErrors>({ fields: {} });
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(toProviderFormValues(provider));
    setErrors({ fields: {} });
  }, [open, provider]);

  function set<K extends keyof ProviderFormValues>(field: K, value: ProviderFormValues[K]) {
    setValues((v) => ({ ...v, [field]: value }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { input, errors: clientErrors } = buildProviderInput(values, provider ? 'update' : 'create', provider);
    setErrors(clientErrors);
    if (!input) return;
    setSaving(true);
    try {
      const saved = provider
        ? await api.providers.update(workspaceId, provider.id, input)
        : await api.providers.create(workspaceId, input as Parameters<typeof api.providers.create>[1]);
      toast.success(provider ? `Saved “${saved.name}”` : `Added provider “${saved.name}”`);
      onSaved(saved);
      onOpenChange(false);
    } catch (err) {
      const mapped = apiErrorToErrors(err, PROVIDER_FIELDS);
      for (const field of PROVIDER_FIELDS) {
        const message = mapped.fields[field];
        if (message) mapped.fields[field] = providerFieldMessage(field, message);
      }
      setErrors(mapped);
    } finally {
      setSaving(false);
    }
  }

  const e = errors.fields;
  // A stored key stays with the host it was entered for: a base URL elsewhere needs it typed again.
  const keyMoves = storedKeyWouldMove(values, provider);
  const keyStored = Boolean(provider?.hasApiKey) && !values.clearApiKey && !keyMoves;
  const keyHint = keyMoves
    ? KEY_FOR_NEW_HOST_MESSAGE
    : keyStored
      ? 'A key is stored. Leave this empty to keep it, or type a new key to replace it.'
      : 'Optional for local servers such as Ollama. The key is never shown again after saving.';
  const modelsHint = 'Separate model ids with commas or new lines, e.g. gpt-4o-mini.';
  const pdfHint = pdfInputHint(values);
  const selectedModelIds = parseModelIds(values.modelIds);
  // Test with what would be saved: a typed key, else the stored one (by id, the key never leaves the server).
  const testRequest = values.apiKey ? { apiKey: values.apiKey } : keyStored && provider ? { providerId: provider.id } : {};

  function toggleModel(modelId: string, selected: boolean) {
    const next = selected ? [...selectedModelIds, modelId] : selectedModelIds.filter((m) => m !== modelId);
    set('modelIds', [...new Set(next)].join('\n'));
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="md"
      title={provider ? `Edit ${provider.name}` : 'Add provider'}
      description="Any server that speaks the OpenAI Chat Completions API: OpenAI, OpenRouter, Ollama, vLLM, LM Studio…"
    >
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {errors.form && <Alert>{errors.form}</Alert>}
        <Field id="provider-name" label="Name" error={e.name}>
          <Input
            {...controlProps('provider-name', { error: e.name })}
            value={values.name}
            onChange={(ev) => set('name', ev.target.value)}
            placeholder="e.g. OpenRouter"
            autoComplete="off"
            autoFocus
          />
        </Field>
        <Field id="provider-baseUrl" label="Base URL" error={e.baseUrl}>
          <Input
            {...controlProps('provider-baseUrl', { error: e.baseUrl })}
            type="url"
            value={values.baseUrl}
            onChange={(ev) => set('baseUrl', ev.target.value)}
            placeholder="https://api.openai.com/v1"
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field
          id="provider-apiKey"
          label={
            <span className="flex items-center gap-2">
              API key
              {keyStored && (
                <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                  <KeyRound className="h-3 w-3" aria-hidden />
                  Key stored
                </span>
              )}
            </span>
          }
          hint={keyHint}
          error={e.apiKey}
        >
          <Input
            {...controlProps('provider-apiKey', { hint: keyHint, error: e.apiKey })}
            type="password"
            value={values.apiKey}
            onChange={(ev) => set('apiKey', ev.target.value)}
            placeholder={keyStored ? '•••••••• (stored)' : 'sk-…'}
            autoComplete="new-password"
            spellCheck={false}
          />
        </Field>
        {provider?.hasApiKey && (
          <label className="-mt-2 flex items-center gap-2 text-sm text-neutral-700 dark:text-neutral-300">
            <input
              type="checkbox"
              checked={values.clearApiKey}
              disabled={Boolean(values.apiKey)}
              onChange={(ev) => set('clearApiKey', ev.target.checked)}
              className="h-4 w-4 accent-indigo-600"
            />
            Remove the stored key
          </label>
        )}
        <ProviderConnectionTest
          workspaceId={workspaceId}
          baseUrl={values.baseUrl}
          request={testRequest}
          selectedModelIds={selectedModelIds}
          onToggleModel={toggleModel}
          onReportedWindows={(reported) => setValues((v) => ({ ...v, contextWindows: withReportedWindows(v.contextWindows, reported) }))}
        />
        <Field id="provider-modelIds" label="Model ids" hint={modelsHint} error={e.modelIds}>
          <Textarea
            {...controlProps('provider-modelIds', { hint: modelsHint, error: e.modelIds })}
            value={values.modelIds}
            onChange={(ev) => set('modelIds', ev.target.value)}
            rows={3}
            placeholder={'gpt-4o-mini\ngpt-4o'}
            spellCheck={false}
            className="font-mono text-[13px]"
          />
        </Field>
        <ProviderContextWindows
          modelIds={selectedModelIds}
          values={values.contextWindows}
          onChange={(modelId, value) => set('contextWindows', { ...values.contextWindows, [modelId]: value })}
          error={e.contextWindows}
        />
        <Field id="provider-pdfInput" label="PDF input" hint={pdfHint} error={e.pdfInput}>
          <Select
            {...controlProps('provider-pdfInput', { hint: pdfHint, error: e.pdfInput })}
            value={values.pdfInput}
            onChange={(ev) => set('pdfInput', ev.target.value as ProviderFormValues['pdfInput'])}
          >
            {PDF_INPUT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving…' : provider ? 'Save changes' : 'Add provider'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
