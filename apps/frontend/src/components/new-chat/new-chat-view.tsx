'use client';

import type { FileUIPart } from 'ai';
import { Bot, Plus } from 'lucide-react';
import { titleFromText } from '@baton/schemas';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState, type ReactNode } from 'react';
import { api } from '@/lib/api-client';
import { messageInput } from '@/lib/attachments';
import { getChatSession, newChatId } from '@/lib/chat-sessions';
import { defaultAgentId, rememberAgent } from '@/lib/last-agent';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { touchChat } from '@/lib/chat-list';
import { DemoModelNotice, firstSubAgentName } from '../chat/demo-model-notice';
import { FileDropZone } from '../chat/file-drop-zone';
import { MessageComposer, type ComposerHandle } from '../chat/message-composer';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { AgentPicker } from './agent-picker';
import { ImportChatButton } from './import-chat-button';

/**
 * Pick an agent and write the first message. The chat id is made here and the session
 * starts streaming before the page moves to the chat's URL, where the same session
 * (kept outside React) carries on.
 */
export function NewChatView({ workspaceId }: { workspaceId: string }) {
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  const router = useRouter();
  const composer = useRef<ComposerHandle>(null);
  const { data: agents, error, reload } = useApiQuery(queryKeys.agents(workspaceId), () => api.agents.listAll(workspaceId));
  const [picked, setPicked] = useState<string | null>(null);
  const agentId = picked && agents?.some((a) => a.id === picked) ? picked : agents ? defaultAgentId(workspaceId, agents) : null;
  const agent = agents?.find((a) => a.id === agentId);

  function pick(id: string) {
    setPicked(id);
    rememberAgent(workspaceId, id);
  }

  function start(text: string, files: FileUIPart[]) {
    if (!agentId) return;
    const chatId = newChatId();
    void getChatSession({ workspaceId, chatId, body: { agentId } }).sendMessage(messageInput(text, files));
    const now = new Date().toISOString();
    touchChat({
      id: chatId,
      workspaceId,
      agentId,
      // Until the server's title arrives: the same rules give the same title.
      title: titleFromText(text || files.map((f) => f.filename ?? 'file').join(', ')),
      parentChatId: null,
      parentToolCallId: null,
      attempt: 1,
      delegateTask: null,
      delegateResult: null,
      status: null,
      outcome: null,
      depth: 0,
      contextMode: null,
      delegateContext: null,
      effectiveToolIds: null,
      notes: [],
      inputTokens: 0,
      outputTokens: 0,
      source: 'app',
      apiKeyName: null,
      pinned: false,
      archived: false,
      modelOverride: null,
      createdAt: now,
      updatedAt: now,
    });
    router.push(`${base}/chat/${encodeURIComponent(chatId)}`);
  }

  let body: ReactNode;
  if (error) {
    body = <RetryAlert onRetry={() => void reload()}>Could not load agents: {error.message}</RetryAlert>;
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
        Every chat is with an agent. Create one with its own instructions and model, and give it sub-agents it can hand tasks to.
      </EmptyState>
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <AgentPicker agents={agents} value={agentId} onChange={pick} />
        <div className="flex flex-col gap-2">
          <MessageComposer ref={composer} workspaceId={workspaceId} onSend={start} autoFocus />
          <DemoModelNotice
            usesDefaultModel={Boolean(agent && !agent.providerId)}
            subAgentName={firstSubAgentName(agent, agents)}
            onTryExample={(text) => composer.current?.fill(text)}
          />
        </div>
      </div>
    );
  }

  return (
    <FileDropZone
      onFiles={(files) => composer.current?.addFiles(files)}
      className="mx-auto flex min-h-full w-full max-w-3xl flex-col justify-center px-4 py-8 md:px-8"
    >
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">What should we work on?</h1>
        <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">
          Choose an agent and send a message. Agents with sub-agents can delegate parts of the work.
        </p>
      </div>
      {body}
      <div className="mt-6 flex justify-center">
        <ImportChatButton workspaceId={workspaceId} />
      </div>
    </FileDropZone>
  );
}
