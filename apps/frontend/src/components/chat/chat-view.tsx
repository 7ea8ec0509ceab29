'use client';

import type { Chat } from '@ai-sdk/react';
import type { Agent, BatonUIMessage, ChatWithMessages } from '@baton/schemas';
import { MessageSquareDashed } from 'lucide-react';
import Link from 'next/link';
import { useRef } from 'react';
import { ApiError, api } from '@/lib/api-client';
import { getChatSession, isSubChatSession, peekChatSession } from '@/lib/chat-sessions';
import { toUIMessages } from '@/lib/stored-messages';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useQuery } from '@/lib/use-query';
import { useChatList } from '@/stores/chat-list-store';
import { RetryAlert } from '../ui/alert';
import { buttonClasses } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { openTrace } from '@/stores/delegation-viewer-store';
import { ChatHeader } from './chat-header';
import { ChatModel } from './chat-model';
import { ChatUsage } from './chat-usage';
import { firstSubAgentName } from './demo-model-notice';
import { LiveChat } from './live-chat';
import { agentLabel, SubChatView } from './sub-chat-view';
import { useHasDelegations } from '../delegation/use-has-delegations';

/** A chat started in this tab is stored when its first request arrives; give that a moment. */
const NEW_CHAT_RETRIES = 10;
const NEW_CHAT_RETRY_MS = 400;

interface ChatPageData {
  chat: ChatWithMessages;
  agents: Agent[];
}

async function loadChatPage(workspaceId: string, chatId: string): Promise<ChatPageData> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [chat, agents] = await Promise.all([api.chats.get(workspaceId, chatId), api.agents.listAll(workspaceId)]);
      return { chat, agents };
    } catch (err) {
      const startedHere = peekChatSession(chatId) !== undefined;
      if (!(err instanceof ApiError && err.isNotFound && startedHere && attempt < NEW_CHAT_RETRIES)) throw err;
      await new Promise((resolve) => setTimeout(resolve, NEW_CHAT_RETRY_MS));
    }
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
  const { data, error, reload } = useQuery(`chat:${workspaceId}:${chatId}`, () => loadChatPage(workspaceId, chatId));
  // The sidebar's copy follows renames made while the chat is open.
  const listed = useChatList((s) => s.chats.find((c) => c.id === chatId));
  // Until the new chat's data arrives, the previous chat's may still be in hand.
  const chat = data?.chat.id === chatId ? data.chat : undefined;

  const title = listed?.title ?? chat?.title ?? 'New chat';
  useDocumentTitle(chat || existing ? `${title.trim() || 'Untitled chat'} · Baton` : undefined);

  if (!existing) {
    if (error instanceof ApiError && error.isNotFound) {
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
    if (!chat)
      return (
        <div className="mx-auto max-w-3xl px-4">
          <Spinner label="Loading chat…" />
        </div>
      );
  }

  const agents = data?.agents ?? [];
  const agent = chat?.agentId ? agents.find((a) => a.id === chat.agentId) : undefined;
  if (chat?.parentChatId) return <SubChatView workspaceId={workspaceId} chat={chat} agent={agent} />;

  const session = existing ?? getChatSession({ workspaceId, chatId, messages: toUIMessages(chat?.messages ?? []) });
  return <TopLevelChat workspaceId={workspaceId} chatId={chatId} chat={chat} agents={agents} title={title} session={session} existing={existing} />;
}

/** A top-level chat's header and live conversation (its own component: the header follows the session). */
function TopLevelChat({
  workspaceId,
  chatId,
  chat,
  agents,
  title,
  session,
  existing,
}: {
  workspaceId: string;
  chatId: string;
  chat: ChatWithMessages | undefined;
  agents: Agent[];
  title: string;
  session: Chat<BatonUIMessage>;
  existing: Chat<BatonUIMessage> | undefined;
}) {
  const agent = chat?.agentId ? agents.find((a) => a.id === chat.agentId) : undefined;
  const delegated = useHasDelegations(session);
  return (
    <div className="flex h-full flex-col">
      <ChatHeader
        title={title}
        agentLabel={chat ? agentLabel(chat, agent) : undefined}
        model={agent ? <ChatModel workspaceId={workspaceId} agent={agent} /> : undefined}
        usage={<ChatUsage workspaceId={workspaceId} chatId={chatId} session={session} initial={chat?.usage} />}
        onTrace={chat && delegated ? () => openTrace(workspaceId, chatId) : undefined}
      />
      <LiveChat
        key={chatId}
        workspaceId={workspaceId}
        chatId={chatId}
        chat={session}
        agentName={agent?.name}
        usesDefaultModel={Boolean(agent && !agent.providerId)}
        subAgentName={firstSubAgentName(agent, agents)}
        agentChoice={chat && !agent ? agents : undefined}
        stored={chat}
        sessionPredatesLoad={Boolean(existing)}
      />
    </div>
  );
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
