'use client';

import { Bot, Plus } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { defaultAgentId, rememberAgent } from '@/lib/last-agent';
import { useQuery } from '@/lib/use-query';
import { STREAMING_NOTE } from '../chat/chat-view';
import { MessageComposer } from '../chat/message-composer';
import { Alert } from '../ui/alert';
import { Button, buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { AgentPicker } from './agent-picker';

/** Pick an agent and write the first message; the chat is created when it is sent. */
export function NewChatView({ workspaceId }: { workspaceId: string }) {
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  const { data: agents, error, reload } = useQuery(`agents:${workspaceId}`, () => api.agents.listAll(workspaceId));
  const [picked, setPicked] = useState<string | null>(null);
  const agentId = picked && agents?.some((a) => a.id === picked) ? picked : agents ? defaultAgentId(workspaceId, agents) : null;

  function pick(id: string) {
    setPicked(id);
    rememberAgent(workspaceId, id);
  }

  let body;
  if (error) {
    body = (
      <Alert action={<Button variant="ghost" size="sm" onClick={() => void reload()}>Retry</Button>}>
        Could not load agents: {error.message}
      </Alert>
    );
  } else if (!agents) {
    body = <Spinner label="Loading agents…" />;
  } else if (agents.length === 0) {
    body = (
      <EmptyState
        icon={Bot}
        title="Create an agent to start chatting"
        action={
          <Link href={`${base}/agents/new`} className={buttonClasses('primary')}>
            <Plus className="h-4 w-4" aria-hidden />
            New agent
          </Link>
        }
      >
        Every chat is with an agent. Create one with its own instructions and model, and give it sub-agents it can hand
        tasks to.
      </EmptyState>
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <AgentPicker agents={agents} value={agentId} onChange={pick} />
        <MessageComposer disabled disabledReason={STREAMING_NOTE} />
      </div>
    );
  }

  return (
    <div className="mx-auto flex min-h-full w-full max-w-3xl flex-col justify-center px-4 py-8 md:px-8">
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">What should we work on?</h1>
        <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">
          Choose an agent and send a message. Agents with sub-agents can delegate parts of the work.
        </p>
      </div>
      {body}
    </div>
  );
}
