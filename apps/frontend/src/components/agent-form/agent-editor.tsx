'use client';

import type { ReactNode } from 'react';

import { Bot } from 'lucide-react';
import Link from 'next/link';
import { ApiError, api } from '@/lib/api-client';
import { queryKeys } from '@/lib/queries';
import { useApiQuery } from '@/lib/use-api-query';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { Spinner } from '../ui/spinner';
import { AgentForm } from './agent-form';

/** Loads what the agent form needs (the agent, its workspace's agents and providers, the tools) and renders it. */
export function AgentEditor({ workspaceId, agentId }: { workspaceId: string; agentId?: string }) {
  const { data, error, reload } = useApiQuery(
    queryKeys.agentEditor(workspaceId, agentId),
    async () => {
      const [agents, providers, tools] = await Promise.all([
        api.agents.listAll(workspaceId),
        api.providers.listAll(workspaceId),
        api.workspaceTools(workspaceId),
      ]);
      const agent = agentId ? await api.agents.get(workspaceId, agentId) : undefined;
      return { agent, agents, providers, tools };
    },
    // The form starts from what is stored now, never from a copy read before an edit elsewhere.
    { gcTime: 0 },
  );
  const listHref = `/w/${encodeURIComponent(workspaceId)}/agents`;

  let body: ReactNode;
  if (error instanceof ApiError && error.isNotFound) {
    body = (
      <EmptyState
        icon={Bot}
        title="Agent not found"
        action={
          <Link href={listHref} className={buttonClasses('secondary')}>
            Back to agents
          </Link>
        }
      >
        This agent does not exist in this workspace. It may have been deleted.
      </EmptyState>
    );
  } else if (error) {
    body = <RetryAlert onRetry={() => void reload()}>Could not load the agent editor: {error.message}</RetryAlert>;
  } else if (!data) {
    body = <Spinner label="Loading agent…" />;
  } else {
    body = (
      <AgentForm
        key={data.agent?.id ?? 'new'}
        workspaceId={workspaceId}
        agent={data.agent}
        agents={data.agents}
        providers={data.providers}
        tools={data.tools}
      />
    );
  }

  return <PageContainer>{body}</PageContainer>;
}
