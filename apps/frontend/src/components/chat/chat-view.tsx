'use client';

import type { Chat } from '@ai-sdk/react';
import type { Agent, BatonUIMessage, ChatWithMessages } from '@baton/schemas';
import { useQuery } from '@tanstack/react-query';
import { MessageSquareDashed } from 'lucide-react';
import Link from 'next/link';
import { useRef } from 'react';
import { api } from '@/lib/api-client';
import { getChatSession, isSubChatSession, peekChatSession } from '@/lib/chat-sessions';
import { toUIMessages } from '@/lib/stored-messages';
import { useDocumentTitle } from '@/lib/use-document-title';
import { fetchChatOrNull, queryKeys } from '@/lib/queries';
import { useListedChat } from '@/lib/chat-list';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { openTrace } from '@/stores/delegation-viewer-store';
import { ChatHeader } from './chat-header';
import { ChatMenu } from './chat-menu';
import { ChatModel } from './chat-model';
import { ChatUsage } from './chat-usage';
import { firstSubAgentName } from './demo-model-notice';
import { LiveChat } from './live-chat';
import { SubChatView } from './sub-chat-view';
import { ChatAgentPicker } from './chat-agent-picker';
import { useHasDelegations } from '../delegation/use-has-delegations';

/** A chat started in this tab is stored when its first request arrives; give that a moment. */
const NEW_CHAT_RETRIES = 10;
const NEW_CHAT_RETRY_MS = 400;

/** The chat for its page: null when there is none (after waiting a moment for one this tab just started). */
async function loadChat(workspaceId: string, chatId: string): Promise<ChatWithMessages | null> {
  for (let attempt = 0; ; attempt++) {
    const chat = await fetchChatOrNull(workspaceId, chatId);
    const startedHere = peekChatSession(chatId) !== undefined;
    if (chat || !startedHere || attempt >= NEW_CHAT_RETRIES) return chat;
    await new Promise((resolve) => setTimeout(resolve, NEW_CHAT_RETRY_MS));
  }
}

/**
 * One chat. A top-level chat is live: the stored messages seed its session, unless this
 * tab already has one (a chat started here keeps streaming across the URL change), and an
 * answer the server is still writing is followed (see LiveChat). A sub-agent chat opened
 * by URL is read-only.
 */
export function ChatView({ workspaceId, chatId }: { workspaceId: string; chatId: string }) {
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  const existing = useSessionAtOpen(chatId);
  // Read on every open (a copy in the cache from an earlier visit is not shown as this one).
  const chatQuery = useQuery({ queryKey: queryKeys.chat(workspaceId, chatId), queryFn: () => loadChat(workspaceId, chatId), refetchOnMount: 'always' });
  const agentsQuery = useQuery({ queryKey: queryKeys.agents(workspaceId), queryFn: () => api.agents.listAll(workspaceId) });
  const error = chatQuery.error ?? agentsQuery.error ?? undefined;
  const reload = () => Promise.all([chatQuery.refetch(), agentsQuery.refetch()]);
  // The cache's copy follows the chat (a run's end reads it again); what the conversation
  // starts from is the copy read when the page opened it.
  const chat = useChatAtOpen(chatId, chatQuery.isFetchedAfterMount ? chatQuery.data : undefined);
  const latest = chatQuery.data ?? chat;
  // The sidebar's copy follows renames made while the chat is open.
  const listed = useListedChat(workspaceId, chatId);

  const title = listed?.title ?? latest?.title ?? 'New chat';
  useDocumentTitle(chat || existing ? `${title.trim() || 'Untitled chat'} · Baton` : undefined);

  if (!existing) {
    if (chat === null) {
      return (
        <div className="mx-auto max-w-3xl px-4 py-10">
          <EmptyState
            icon={MessageSquareDashed}
            title="Chat not found"
            action={
              <Link href={base} className={buttonClasses('secondary')}>
                Start a new chat
              </Link>
            }
          >
            There is no chat of yours at this address. It may have been deleted, or it belongs to someone else: chats are private to the person who started
            them.
          </EmptyState>
        </div>
      );
    }
    if (error) {
      return (
        <div className="mx-auto max-w-3xl px-4 py-10">
          <RetryAlert onRetry={() => void reload()}>Could not load this chat: {error.message}</RetryAlert>
        </div>
      );
    }
    if (!chat || !agentsQuery.data)
      return (
        <div className="mx-auto max-w-3xl px-4">
          <Spinner label="Loading chat…" />
        </div>
      );
  }

  const agents = agentsQuery.data ?? [];
  const opened = chat ?? undefined;
  const agent = opened?.agentId ? agents.find((a) => a.id === opened.agentId) : undefined;
  if (opened?.parentChatId) return <SubChatView workspaceId={workspaceId} chat={latest ?? opened} agent={agent} />;

  const session = existing ?? getChatSession({ workspaceId, chatId, messages: toUIMessages(opened?.messages ?? []) });
  return (
    <TopLevelChat
      workspaceId={workspaceId}
      chatId={chatId}
      chat={opened}
      current={latest ?? opened}
      agents={agents}
      title={title}
      session={session}
      existing={existing}
    />
  );
}

/** A top-level chat's header and live conversation (its own component: the header follows the session). */
function TopLevelChat({
  workspaceId,
  chatId,
  chat,
  current,
  agents,
  title,
  session,
  existing,
}: {
  workspaceId: string;
  chatId: string;
  /** The chat as the page opened it: the conversation starts from it. */
  chat: ChatWithMessages | undefined;
  /** The chat as it is now (the query cache's copy): its agent and model may have been switched since. */
  current: ChatWithMessages | undefined;
  agents: Agent[];
  title: string;
  session: Chat<BatonUIMessage>;
  existing: Chat<BatonUIMessage> | undefined;
}) {
  const agent = current?.agentId ? agents.find((a) => a.id === current.agentId) : undefined;
  const delegated = useHasDelegations(session);
  // The chat's own model, where its agent lets it choose one.
  const modelId = (agent?.allowModelOverride && agent.providerId && current?.modelOverride) || agent?.modelId || null;
  return (
    <div className="flex h-full flex-col">
      <ChatHeader
        title={title}
        agentPicker={current ? <ChatAgentPicker workspaceId={workspaceId} chat={current} agents={agents} session={session} /> : undefined}
        model={agent ? <ChatModel workspaceId={workspaceId} agent={{ providerId: agent.providerId, modelId }} /> : undefined}
        usage={<ChatUsage workspaceId={workspaceId} chatId={chatId} session={session} initial={chat?.usage} />}
        onTrace={chat && delegated ? () => openTrace(workspaceId, chatId) : undefined}
        menu={<ChatMenu workspaceId={workspaceId} chatId={chatId} />}
      />
      <LiveChat
        key={chatId}
        workspaceId={workspaceId}
        chatId={chatId}
        chat={session}
        agentId={agent?.id}
        agentName={agent?.name}
        usesDefaultModel={Boolean(agent && !agent.providerId)}
        subAgentName={firstSubAgentName(agent, agents)}
        agentChoice={current && !agent ? agents : undefined}
        stored={chat}
        sessionPredatesLoad={Boolean(existing)}
      />
    </div>
  );
}

/**
 * The first copy of the chat read after the page opened it (null: there is none), kept for
 * the page's life: the conversation is seeded and followed from it once, and later reads
 * (a run's end) reach it through the session, not by starting the follow again.
 */
function useChatAtOpen(chatId: string, read: ChatWithMessages | null | undefined): ChatWithMessages | null | undefined {
  const atOpen = useRef<{ chatId: string; chat: ChatWithMessages | null }>(null);
  if (read !== undefined && read?.id !== undefined && read.id !== chatId) read = undefined;
  if (atOpen.current?.chatId !== chatId && read !== undefined) atOpen.current = { chatId, chat: read };
  return atOpen.current?.chatId === chatId ? atOpen.current.chat : undefined;
}

/**
 * The session this tab already had for the chat when the page opened it (a chat started
 * here, or one visited before), as opposed to one this page creates from the stored messages.
 * Read once per chat: the page creating a session during a render (StrictMode renders
 * twice) must not make it look like a chat started here.
 */
function useSessionAtOpen(chatId: string): Chat<BatonUIMessage> | undefined {
  const atOpen = useRef<{ chatId: string; session: Chat<BatonUIMessage> | undefined }>(null);
  if (atOpen.current?.chatId !== chatId) {
    // A sub-agent's live session is not this page's to drive: it opens read-only, from the store.
    atOpen.current = { chatId, session: isSubChatSession(chatId) ? undefined : peekChatSession(chatId) };
  }
  return atOpen.current.session;
}
