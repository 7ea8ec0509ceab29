'use client';

import type { Agent } from '@baton/schemas';
import { FlaskConical } from 'lucide-react';
import { useDefaultModel } from '@/lib/use-default-model';

export const DEMO_EXAMPLE_TASK = 'find three facts about otters';

/** The agent's first sub-agent that still exists: the one the demo example delegates to. */
export function firstSubAgentName(agent: Pick<Agent, 'subAgentIds'> | undefined, agents: Agent[]): string | undefined {
  return agent?.subAgentIds.map((id) => agents.find((a) => a.id === id)?.name).find(Boolean);
}

/**
 * Says plainly that the offline demo model (a scripted stand-in, not a language model) is
 * answering, and how to make it delegate. Shown only when the default model is the demo
 * and the agent uses the default (it has no provider of its own).
 */
export function DemoModelNotice({
  usesDefaultModel,
  subAgentName,
  onTryExample,
}: {
  usesDefaultModel: boolean;
  /** A sub-agent of the chat's agent, for a delegation example that works as is. */
  subAgentName?: string;
  onTryExample: (text: string) => void;
}) {
  const model = useDefaultModel();
  if (!usesDefaultModel || model?.kind !== 'demo') return null;
  const syntax = model.demoSyntax ?? '/delegate <sub-agent name>: <task>';
  const example = subAgentName ? `/delegate ${subAgentName}: ${DEMO_EXAMPLE_TASK}` : null;
  return (
    <aside
      aria-label="Demo model"
      className="flex flex-wrap items-baseline justify-between gap-x-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-1.5 text-xs leading-5 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <p className="min-w-0">
        <FlaskConical className="mr-1.5 inline h-3.5 w-3.5 -translate-y-px" aria-hidden />
        <strong className="font-semibold">Offline demo model</strong>, not a real AI. Delegate:{' '}
        <code className="whitespace-nowrap rounded bg-amber-100 px-1 font-mono dark:bg-amber-900/50">{syntax}</code>
      </p>
      {example && (
        <button
          type="button"
          onClick={() => onTryExample(example)}
          aria-label={`Try it: ${example}`}
          title={`Write “${example}” in the message box`}
          className="shrink-0 cursor-pointer font-medium underline underline-offset-2 hover:text-amber-700 dark:hover:text-amber-100"
        >
          Try it
        </button>
      )}
    </aside>
  );
}
