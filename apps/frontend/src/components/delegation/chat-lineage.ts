'use client';

import type { Chat } from '@baton/schemas';
import { useEffect, useState } from 'react';
import { readChat, workspaceAgents } from '@/lib/queries';

/** One step of a breadcrumb: a chat and the name of the agent that answers in it. */
export interface LineageStep {
  chatId: string;
  agentName: string;
  /** A top-level chat: opened as a page, not in the viewer. */
  topLevel: boolean;
}

/**
 * The chain from the top-level chat down to `chat` ("Assistant › Researcher › Writer"),
 * read by following `parentChatId` (a tree is at most a few levels deep).
 */
export function useChatLineage(workspaceId: string, chat: Pick<Chat, 'id' | 'agentId' | 'parentChatId'> | undefined): LineageStep[] | undefined {
  const [steps, setSteps] = useState<LineageStep[]>();
  const key = chat ? `${chat.id}:${chat.parentChatId}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chat's id and parent are what the chain depends on.
  useEffect(() => {
    if (!chat) return;
    let current = true;
    void (async () => {
      const agents = await workspaceAgents(workspaceId).catch(() => new Map());
      const name = (agentId: string | null) => (agentId ? (agents.get(agentId)?.name ?? 'deleted agent') : 'no agent');
      const chain: LineageStep[] = [{ chatId: chat.id, agentName: name(chat.agentId), topLevel: !chat.parentChatId }];
      let parentId = chat.parentChatId;
      for (let hops = 0; parentId && hops < 10; hops++) {
        const parent = await readChat(workspaceId, parentId).catch(() => undefined);
        if (!parent) break;
        chain.unshift({ chatId: parent.id, agentName: name(parent.agentId), topLevel: !parent.parentChatId });
        parentId = parent.parentChatId;
      }
      if (current) setSteps(chain);
    })();
    return () => {
      current = false;
    };
  }, [workspaceId, key]);
  return steps;
}
