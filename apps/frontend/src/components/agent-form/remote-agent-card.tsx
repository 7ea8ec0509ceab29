'use client';

import type { RemoteCardResult } from '@baton/schemas';
import { CircleAlert, Download, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { controlProps, Field } from '../ui/field';
import { Input, Textarea } from '../ui/input';
import type { SetAgentField } from './agent-form';
import { parseHeaderLines, type AgentFormValues } from './form-values';

interface Props {
  workspaceId: string;
  /** The stored agent, whose headers "Fetch card" uses when none are typed. */
  agentId?: string;
  storedHeaderNames: string[];
  values: AgentFormValues;
  error?: string;
  setField: SetAgentField;
}

type FetchState = { status: 'idle' } | { status: 'fetching' } | { status: 'done'; result: RemoteCardResult };

/**
 * A remote A2A agent: where its Agent Card is, the headers Baton sends it (write-only), and
 * "Fetch card", which shows the card's name, description and skills, or why it cannot be read.
 */
export function RemoteAgentCard({ workspaceId, agentId, storedHeaderNames, values, error, setField }: Props) {
  const [state, setState] = useState<FetchState>({ status: 'idle' });
  const urlHint = 'The Agent Card’s URL (…/.well-known/agent-card.json) or the agent’s base URL.';
  const headersHint = storedHeaderNames.length
    ? `Stored: ${storedHeaderNames.join(', ')} (values are never shown). Leave empty to keep them; type new ones to replace them.`
    : 'Optional, one per line, e.g. Authorization: Bearer …. Stored encrypted, never shown again.';

  async function fetchCard() {
    const headers = parseHeaderLines(values.remoteHeaders);
    setState({ status: 'fetching' });
    try {
      const result = await api.agents.remoteCard(workspaceId, {
        cardUrl: values.remoteCardUrl.trim(),
        ...(values.remoteHeaders.trim() && headers ? { headers } : agentId ? { agentId } : {}),
      });
      setState({ status: 'done', result });
      // A new agent takes the card's description, which delegating agents read.
      if (result.ok && !values.description.trim()) setField('description', result.card.description.slice(0, 2000));
    } catch (err) {
      setState({ status: 'done', result: { ok: false, message: (err as Error).message } });
    }
  }

  const result = state.status === 'done' ? state.result : undefined;
  return (
    <Card title="Remote A2A agent" description="Another server runs this agent; Baton sends it tasks over the A2A protocol and shows its progress.">
      <div className="flex flex-col gap-4">
        <Field id="agent-remote" label="Card URL" hint={urlHint} error={error}>
          <Input
            {...controlProps('agent-remote', { hint: urlHint, error })}
            value={values.remoteCardUrl}
            onChange={(e) => setField('remoteCardUrl', e.target.value)}
            placeholder="https://agents.example.com/.well-known/agent-card.json"
            autoComplete="off"
          />
        </Field>
        <Field id="agent-remote-headers" label="Headers" hint={headersHint}>
          <Textarea
            {...controlProps('agent-remote-headers', { hint: headersHint })}
            value={values.remoteHeaders}
            onChange={(e) => setField('remoteHeaders', e.target.value)}
            rows={2}
            placeholder="Authorization: Bearer …"
            className="font-mono text-[13px]"
          />
        </Field>
        <div className="flex flex-col gap-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
          <div className="flex items-center gap-3">
            <Button variant="secondary" size="sm" onClick={() => void fetchCard()} disabled={state.status === 'fetching' || !values.remoteCardUrl.trim()}>
              {state.status === 'fetching' ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Download className="h-4 w-4" aria-hidden />}
              Fetch card
            </Button>
            <p role="status" aria-live="polite" className="text-sm text-neutral-500">
              {state.status === 'idle' && 'Reads the agent’s card to check the address and headers.'}
              {state.status === 'fetching' && 'Reading the card…'}
            </p>
          </div>
          {result && !result.ok && (
            <p className="flex items-start gap-1.5 break-words text-sm text-red-700 dark:text-red-400" data-testid="remote-card-error">
              <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              {result.message}
            </p>
          )}
          {result?.ok && (
            <div data-testid="remote-card" className="flex flex-col gap-1 text-sm">
              <p className="font-medium text-neutral-900 dark:text-neutral-50">
                {result.card.name}
                {result.card.version && <span className="ml-2 font-normal text-neutral-500">v{result.card.version}</span>}
                <span className="ml-2 font-normal text-neutral-500">{result.card.streaming ? 'streams its progress' : 'no streaming'}</span>
              </p>
              {result.card.description && <p className="text-neutral-600 dark:text-neutral-400">{result.card.description}</p>}
              {result.card.skills.length > 0 && (
                <ul className="mt-1 list-disc pl-5 text-neutral-700 dark:text-neutral-300" aria-label="Skills">
                  {result.card.skills.map((s) => (
                    <li key={s.id}>
                      <span className="font-medium">{s.name}</span>
                      {s.description && <span className="text-neutral-500"> — {s.description}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}
