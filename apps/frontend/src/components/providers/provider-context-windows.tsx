'use client';

import { contextWindowFor } from '@baton/schemas';
import { FieldError } from '../ui/field';
import { Input } from '../ui/input';

const count = new Intl.NumberFormat('en-US');

interface ProviderContextWindowsProps {
  /** The models the provider form lists: each gets a window. */
  modelIds: string[];
  /** As typed, by model id ('' = Baton's default for the model). */
  values: Record<string, string>;
  onChange: (modelId: string, value: string) => void;
  error?: string;
}

/**
 * How many tokens each listed model takes in. Baton leaves the oldest messages out of a
 * conversation that would not fit; "Test connection" fills in what the provider reports.
 */
export function ProviderContextWindows({ modelIds, values, onChange, error }: ProviderContextWindowsProps) {
  if (modelIds.length === 0) return null;
  const hint = 'Tokens each model takes in, prompt and answer. Empty: the default shown. Test connection fills in what the provider reports.';
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? 'provider-contextWindows-error' : 'provider-contextWindows-hint'}>
      <legend className="mb-1.5 text-sm font-medium text-neutral-800 dark:text-neutral-200">Context windows</legend>
      <ul className="flex max-h-56 flex-col gap-1.5 overflow-y-auto">
        {modelIds.map((modelId, i) => (
          <li key={modelId} className="flex min-w-0 items-center gap-2">
            <label
              htmlFor={`provider-window-${i}`}
              className="min-w-0 flex-1 truncate font-mono text-[13px] text-neutral-800 dark:text-neutral-200"
              title={modelId}
            >
              {modelId}
            </label>
            <div className="w-32 shrink-0">
              <Input
                id={`provider-window-${i}`}
                aria-label={`Context window of ${modelId}, in tokens`}
                aria-invalid={Boolean(error)}
                inputMode="numeric"
                value={values[modelId] ?? ''}
                onChange={(ev) => onChange(modelId, ev.target.value)}
                placeholder={count.format(contextWindowFor(modelId))}
                autoComplete="off"
                className="h-8 text-right text-sm tabular-nums"
              />
            </div>
            <span className="shrink-0 text-xs text-neutral-500">tokens</span>
          </li>
        ))}
      </ul>
      {error ? (
        <FieldError id="provider-contextWindows-error" message={error} />
      ) : (
        <p id="provider-contextWindows-hint" className="text-xs text-neutral-500 dark:text-neutral-400">
          {hint}
        </p>
      )}
    </fieldset>
  );
}
