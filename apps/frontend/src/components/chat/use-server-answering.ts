'use client';

import type { Chat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';
import { toUIMessages } from './message-parts';

const POLL_MS = 1_000;

/**
 * A page opened while the server is still answering (a reload mid-answer) has no stream
 * to read: the server keeps the answer going and stores its progress, so follow the
 * stored messages until the turn ends. Returns whether the server is still answering.
 */
export function useServerAnswering(opts: {
  workspaceId: string;
  chatId: string;
  chat: Chat<UIMessage>;
  initiallyAnswering: boolean;
}): boolean {
  const { workspaceId, chatId, chat, initiallyAnswering } = opts;
  const [answering, setAnswering] = useState(initiallyAnswering);

  useEffect(() => {
    if (!answering) return;
    let cancelled = false;
    void (async () => {
      while (!cancelled) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const fresh = await api.chats.get(workspaceId, chatId).catch(() => undefined);
        if (cancelled || !fresh) continue;
        // Only while this tab is not streaming itself: a live stream is fresher than the store.
        if (chat.status === 'ready' || chat.status === 'error') chat.messages = toUIMessages(fresh.messages);
        if (!fresh.answering) {
          setAnswering(false);
          return;
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [answering, workspaceId, chatId, chat]);

  return answering;
}
