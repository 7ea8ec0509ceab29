'use client';

import { providerBaseUrlSchema, type ProviderTestRequest, type ProviderTestResult } from '@baton/schemas';
import { CircleAlert, CircleCheck, LoaderCircle, PlugZap } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { api } from '@/lib/api-client';
import { Button } from '../ui/button';
import { Input } from '../ui/input';

type TestState = { status: 'idle' } | { status: 'testing' } | { status: 'done'; result: ProviderTestResult } | { status: 'failed'; message: string };

interface ProviderConnectionTestProps {
  workspaceId: string;
  /** What the form holds now: the test uses exactly what would be saved. */
  baseUrl: string;
  request: Omit<ProviderTestRequest, 'baseUrl'>;
  /** Model ids in the form's field. */
  selectedModelIds: string[];
  onToggleModel: (modelId: string, selected: boolean) => void;
  /** The context windows the provider's model list reported, by model id. */
  onReportedWindows: (windows: Record<string, number>) => void;
}

const count = new Intl.NumberFormat('en-US');

// Past this many, a filter box: OpenRouter lists hundreds.
const FILTER_FROM = 12;

/**
 * "Test connection": asks the provider (through the server) for its `/models`, says whether
 * it answered, and offers the ids it listed as checkboxes for the model ids field.
 */
export function ProviderConnectionTest({ workspaceId, baseUrl, request, selectedModelIds, onToggleModel, onReportedWindows }: ProviderConnectionTestProps) {
  const [state, setState] = useState<TestState>({ status: 'idle' });
  const [filter, setFilter] = useState('');
  const listId = useId();
  // A result is about the URL and key it was tested with: changing either makes it stale.
  const testedWith = `${baseUrl}\n${JSON.stringify(request)}`;
  const lastTested = useRef<string | null>(null);
  useEffect(() => {
    if (lastTested.current !== null && lastTested.current !== testedWith) setState({ status: 'idle' });
  }, [testedWith]);

  async function test() {
    const url = providerBaseUrlSchema.safeParse(baseUrl.trim());
    if (!url.success) {
      setState({ status: 'failed', message: 'Type a valid http(s) base URL first, e.g. https://api.openai.com/v1.' });
      return;
    }
    lastTested.current = testedWith;
    setState({ status: 'testing' });
    try {
      const result = await api.providers.test(workspaceId, { ...request, baseUrl: url.data });
      if (result.ok && result.contextWindows) onReportedWindows(result.contextWindows);
      setState({ status: 'done', result });
    } catch (err) {
      setState({ status: 'failed', message: `Could not test the connection: ${(err as Error).message}` });
    }
  }

  const result = state.status === 'done' ? state.result : undefined;
  const modelIds = result?.ok ? result.modelIds : [];
  const shown = filter ? modelIds.filter((m) => m.toLowerCase().includes(filter.trim().toLowerCase())) : modelIds;

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Button variant="secondary" size="sm" onClick={() => void test()} disabled={state.status === 'testing'}>
          {state.status === 'testing' ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <PlugZap className="h-4 w-4" aria-hidden />}
          Test connection
        </Button>
        <p role="status" aria-live="polite" className="min-w-0 flex-1 text-sm">
          {state.status === 'idle' && <span className="text-neutral-500">Checks the base URL and key by listing the provider’s models.</span>}
          {state.status === 'testing' && <span className="text-neutral-500">Asking the provider for its models…</span>}
          {result?.ok && (
            <span className="inline-flex items-center gap-1.5 font-medium text-emerald-700 dark:text-emerald-400">
              <CircleCheck className="h-4 w-4 shrink-0" aria-hidden />
              Connected: {result.modelIds.length} {result.modelIds.length === 1 ? 'model' : 'models'}
            </span>
          )}
        </p>
      </div>
      {(state.status === 'failed' || (result && !result.ok)) && (
        <p className="flex items-start gap-1.5 break-words text-sm text-red-700 dark:text-red-400" data-testid="provider-test-error">
          <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {state.status === 'failed' ? state.message : result && !result.ok ? result.error.message : null}
        </p>
      )}
      {modelIds.length > 0 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm text-neutral-600 dark:text-neutral-400">Pick the models agents may use:</legend>
          {modelIds.length > FILTER_FROM && (
            <Input
              value={filter}
              onChange={(ev) => setFilter(ev.target.value)}
              placeholder="Filter models"
              aria-label="Filter models"
              aria-controls={listId}
              className="h-8 text-sm"
            />
          )}
          <ul id={listId} className="flex max-h-48 flex-col gap-1 overflow-y-auto">
            {shown.map((modelId) => (
              <li key={modelId}>
                <label className="flex items-center gap-2 break-all font-mono text-[13px] text-neutral-800 dark:text-neutral-200">
                  <input
                    type="checkbox"
                    checked={selectedModelIds.includes(modelId)}
                    onChange={(ev) => onToggleModel(modelId, ev.target.checked)}
                    className="h-4 w-4 shrink-0 accent-indigo-600"
                  />
                  {modelId}
                  {result?.ok && result.contextWindows?.[modelId] && (
                    <span className="font-sans text-xs text-neutral-500">{count.format(result.contextWindows[modelId])} tokens</span>
                  )}
                </label>
              </li>
            ))}
            {shown.length === 0 && <li className="text-sm text-neutral-500">No model matches “{filter}”.</li>}
          </ul>
        </fieldset>
      )}
      {result?.ok && modelIds.length === 0 && <p className="text-sm text-neutral-500">The provider lists no models: type the ids below.</p>}
    </div>
  );
}
