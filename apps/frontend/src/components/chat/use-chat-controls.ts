'use client';

import type { FileUIPart } from 'ai';
import type { Chat } from '@ai-sdk/react';
import type { BatonUIMessage } from '@baton/schemas';
import { useCallback } from 'react';
import { api } from '@/lib/api-client';
import { messageInput } from '@/lib/attachments';
import { stopFollowing } from '@/lib/follow-server-run';
import { chatRunEnded } from '@/lib/run-ended';
import { queryKeys } from '@/lib/queries';
import { getQueryClient } from '@/lib/query-client';
import { toast } from 'sonner';
import { toUIMessages } from '@/lib/stored-messages';
import { listedChat, retitleListedChat, touchChat } from '@/lib/chat-list';
import { cancelDelegationsQuietly } from '../delegation/delegation-outcome';

/** Tries again for a Stop that reached the server before the answer's run had begun. */
const STOP_RETRIES = 3;
const STOP_RETRY_MS = 300;

const isBusy = (chat: Chat<BatonUIMessage>) => chat.status === 'submitted' || chat.status === 'streaming';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Send, Stop, Regenerate and Edit for one live top-level chat. */
export function useChatControls({ workspaceId, chatId, chat }: { workspaceId: string; chatId: string; chat: Chat<BatonUIMessage> }) {
  const send = useCallback(
    /** `agentId` gives a chat whose agent is gone a new one (the server records it). */
    (text: string, files: FileUIPart[], agentId?: string) => {
      void chat.sendMessage(messageInput(text, files), agentId ? { body: { agentId } } : undefined);
      // The chat just became the most recently active one.
      const known = listedChat(workspaceId, chatId);
      if (known) touchChat({ ...known, updatedAt: new Date().toISOString() });
    },
    [chat, workspaceId, chatId],
  );

  const regenerate = useCallback(() => {
    if (!isBusy(chat)) void chat.regenerate();
  }, [chat]);

  // The AI SDK replaces the message (same id) and drops what followed it; the server keeps the
  // old text and what followed it as another branch (the new one takes the id), see `switchVersion`.
  // The message's files go again with the new text: they are this chat's already.
  const edit = useCallback(
    (messageId: string, text: string) => {
      if (isBusy(chat)) return;
      const files = chat.messages.find((m) => m.id === messageId)?.parts.filter((p) => p.type === 'file') ?? [];
      void chat.sendMessage({ ...messageInput(text, files), messageId });
    },
    [chat],
  );

  /**
   * `‹ 2/3 ›`: the server switches the active branch and answers with the chat as it now
   * reads — one request, then the transcript and the query cache show it (a reload reads the same).
   */
  const switchVersion = useCallback(
    async (messageId: string) => {
      if (isBusy(chat)) return;
      try {
        const updated = await api.chats.activateVersion(workspaceId, chatId, messageId);
        getQueryClient().setQueryData(queryKeys.chat(workspaceId, chatId), updated);
        retitleListedChat(workspaceId, chatId, updated.title);
        if (!isBusy(chat)) chat.messages = toUIMessages(updated.messages);
      } catch (err) {
        toast.error(`Could not switch versions: ${err instanceof Error ? err.message : 'the server did not answer'}`);
      }
    },
    [chat, workspaceId, chatId],
  );

  /**
   * Closing the stream alone would leave the server answering (it keeps running when a
   * client goes away), so Stop also calls the stop endpoint. That resolves once the
   * partial answer is stored; the transcript then shows exactly what was kept. A followed
   * answer (resumed after a reload, or another tab's) stops the same way, and so does an
   * answer that waits for its sub-agents: they end cancelled and it is not continued.
   */
  const stop = useCallback(async () => {
    const waitingForStart = chat.status === 'submitted';
    stopFollowing(chatId);
    // Sub-agents the browser runs for this answer stop with it; the server settles their calls.
    await cancelDelegationsQuietly(chatId);
    const stopOnServer = async () => {
      for (let attempt = 0; ; attempt++) {
        const { stopped } = await api.chats.stop(workspaceId, chatId).catch(() => ({ stopped: false }));
        if (stopped || !waitingForStart || attempt >= STOP_RETRIES) return stopped;
        await wait(STOP_RETRY_MS);
      }
    };
    const [stopped] = await Promise.all([stopOnServer(), chat.stop()]);
    if (!stopped) return;
    // What the server kept, read once it is stored (the session's own end does not read on a stop).
    const stored = await chatRunEnded(workspaceId, chatId, { fresh: true });
    if (stored && !isBusy(chat)) chat.messages = toUIMessages(stored.messages);
  }, [chat, workspaceId, chatId]);

  return { send, regenerate, edit, switchVersion, stop };
}
