'use client';

import type { ReactNode } from 'react';

import { Bot } from 'lucide-react';
import Link from 'next/link';
import { ApiError, api } from '@/lib/api-client';
import { listWorkspaceTools } from '@/lib/mcp-servers-api';
import { useQuery } from '@/lib/use-query';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { Spinner } from '../ui/spinner';
import { AgentForm } from './agent-form';

/** Loads what the agent form needs (the agent, its workspace's agents and providers, the tools) and renders it. */
export function AgentEditor({ workspaceId, agentId }: { workspaceId: string; agentId?: string }) {
  const { data, error, reload } = useQuery(`agent-editor:${workspaceId}:${agentId ?? ''}`, async () => {
    const [agents, providers, tools] = await Promise.all([
      api.agents.listAll(workspaceId),
      api.providers.listAll(workspaceId),
      listWorkspaceTools(workspaceId),
    ]);
    const agent = agentId ? await api.agents.get(workspaceId, agentId) : undefined;
    return { agent, agents, providers, tools };
  });
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
