'use client';

import { toUIMessages } from '@/lib/stored-messages';
import { useChatQuery } from '@/lib/use-api-query';
import { useMessageList } from '../chat/message-list-context';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { QuotedOutput } from '../markdown/image-policy';
import { useSharedChat } from '../shared/shared-chat-context';

/**
 * A sub-chat's stored conversation, read-only, loaded when a delegation block is
 * expanded (not with the parent chat: a transcript may hold many delegations).
 */
export function SubChatTranscript({ workspaceId, subChatId }: { workspaceId: string; subChatId: string }) {
  // A shared chat holds its sub-chats' messages already (and its visitor could not read them from the API).
  return useSharedChat() ? (
    <SharedTranscript workspaceId={workspaceId} subChatId={subChatId} />
  ) : (
    <StoredTranscript workspaceId={workspaceId} subChatId={subChatId} />
  );
}

function SharedTranscript({ workspaceId, subChatId }: { workspaceId: string; subChatId: string }) {
  const MessageList = useMessageList();
  const sub = useSharedChat()?.subChat.get(subChatId);
  if (!sub) return <p className="text-sm text-neutral-500">This sub-chat is not part of the shared conversation.</p>;
  if (sub.messages.length === 0) return <p className="text-sm text-neutral-500">The sub-agent has no messages.</p>;
  return (
    <QuotedOutput>
      <MessageList messages={toUIMessages(sub.messages)} workspaceId={workspaceId} chatId={subChatId} />
    </QuotedOutput>
  );
}

function StoredTranscript({ workspaceId, subChatId }: { workspaceId: string; subChatId: string }) {
  const MessageList = useMessageList();
  const { data, error, reload } = useChatQuery(workspaceId, subChatId);
  if (error || data === null) {
    const gone = data === null;
    return (
      <Alert
        action={
          gone ? undefined : (
            <Button variant="secondary" size="sm" onClick={() => void reload()}>
              Retry
            </Button>
          )
        }
      >
        {gone ? 'This sub-chat no longer exists.' : `Could not load the sub-agent's conversation: ${error?.message}`}
      </Alert>
    );
  }
  if (!data) return <Spinner label="Loading the sub-agent's conversation…" />;
  if (data.messages.length === 0) return <p className="text-sm text-neutral-500">The sub-agent has no messages yet.</p>;
  return (
    <QuotedOutput>
      <MessageList messages={toUIMessages(data.messages)} workspaceId={workspaceId} chatId={subChatId} />
    </QuotedOutput>
  );
}
