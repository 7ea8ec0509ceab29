'use client';

import type { Agent } from '@baton/schemas';
import { Bot, ChevronRight, Lock, PenLine, Plus, Users } from 'lucide-react';
import Link from 'next/link';
import { api } from '@/lib/api-client';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';

export function AgentList({ workspaceId }: { workspaceId: string }) {
  const base = `/w/${encodeURIComponent(workspaceId)}/agents`;
  const { data: agents, error, loading, reload } = useApiQuery(queryKeys.agents(workspaceId), () => api.agents.listAll(workspaceId));

  const newAgent = (
    <Link href={`${base}/new`} className={buttonClasses('primary')}>
      <Plus className="h-4 w-4" aria-hidden />
      New agent
    </Link>
  );

  return (
    <PageContainer>
      <PageHeader title="Agents" description="Each agent has its own instructions, model and tools, and may hand tasks to its sub-agents." actions={newAgent} />
      {error && <RetryAlert onRetry={() => void reload()}>Could not load agents: {error.message}</RetryAlert>}
      {!agents && loading && <Spinner label="Loading agents…" />}
      {agents?.length === 0 && (
        <EmptyState icon={Bot} title="No agents yet" action={newAgent}>
          Create an agent to chat with. Give it instructions and a model, then pick other agents as its sub-agents so it can delegate work to them.
        </EmptyState>
      )}
      {agents && agents.length > 0 && (
        <ul aria-label="Agents" className="grid gap-3">
          {agents.map((agent) => (
            <AgentRow key={agent.id} agent={agent} href={`${base}/${encodeURIComponent(agent.id)}`} />
          ))}
        </ul>
      )}
    </PageContainer>
  );
}

function AgentRow({ agent, href }: { agent: Agent; href: string }) {
  const subAgents = agent.subAgentIds.length;
  return (
    <li>
      <Link
        href={href}
        className="group flex items-center gap-4 rounded-xl border border-neutral-200 bg-white p-4 transition-colors hover:border-neutral-300 hover:bg-neutral-50 dark:border-neutral-800 dark:bg-neutral-900 dark:hover:border-neutral-700 dark:hover:bg-neutral-800/60"
      >
        <span
          className="grid h-10 w-10 shrink-0 place-items-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300"
          aria-hidden
        >
          <Bot className="h-5 w-5" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium text-neutral-900 dark:text-neutral-50">{agent.name}</span>
          <span className="mt-0.5 line-clamp-2 text-sm text-neutral-600 dark:text-neutral-400">{agent.description || 'No description'}</span>
          <span className="mt-2 flex flex-wrap gap-2 text-xs text-neutral-600 dark:text-neutral-400">
            <span className="inline-flex items-center gap-1 rounded-full bg-neutral-100 px-2 py-0.5 dark:bg-neutral-800">
              <Users className="h-3 w-3" aria-hidden />
              {subAgents === 1 ? '1 sub-agent' : `${subAgents} sub-agents`}
            </span>
            <span className="rounded-full bg-neutral-100 px-2 py-0.5 dark:bg-neutral-800">{agent.modelId ?? 'Default model'}</span>
            {agent.authorName && <span className="rounded-full bg-neutral-100 px-2 py-0.5 dark:bg-neutral-800">By {agent.authorName}</span>}
            {!agent.canEdit && (
              <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-amber-800 dark:bg-amber-950/50 dark:text-amber-300">
                <Lock className="h-3 w-3" aria-hidden />
                Read-only
              </span>
            )}
            {agent.editableBy === 'workspace' && (
              <span className="inline-flex items-center gap-1 rounded-full bg-neutral-100 px-2 py-0.5 dark:bg-neutral-800">
                <PenLine className="h-3 w-3" aria-hidden />
                Members can edit
              </span>
            )}
          </span>
        </span>
        <ChevronRight className="h-4 w-4 shrink-0 text-neutral-400 group-hover:text-neutral-600" aria-hidden />
      </Link>
    </li>
  );
}
