'use client';

import { GENERAL_PURPOSE_LISTING, isGeneralPurpose } from '@baton/delegation';
import type { Chat } from '@baton/schemas';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '@/lib/api-client';
import { findWorkspaceAgent, knownAgentName, queryKeys } from '@/lib/queries';
import { useSharedChat } from '../shared/shared-chat-context';

/*
 * What a delegation block needs when the delegation did not run in this page session
 * (an older message, or after a reload): the sub-agent's name and the stored sub-chat
 * (status, timestamps). Both come from the query cache, shared by every block of the
 * transcript and by the delegation flow (run-delegation.ts reads the same sub-chat list).
 */

/**
 * The sub-agent's name for a block: the general-purpose sub-agent's own label, or the name
 * from the workspace's (cached) agent list — known on the first render when the list is
 * already here. Undefined while it loads; the id itself only for an agent no longer in the
 * list (deleted), the one thing left to show then.
 */
export function useSubAgentName(workspaceId: string, agentId: string | undefined): string | undefined {
  const shared = useSharedChat();
  const label = agentId && isGeneralPurpose(agentId) ? GENERAL_PURPOSE_LISTING.name : undefined;
  const [name, setName] = useState<string | undefined>(() => (agentId && !label && !shared ? knownAgentName(workspaceId, agentId) : undefined));
  useEffect(() => {
    if (label || !agentId || shared) return;
    let current = true;
    findWorkspaceAgent(workspaceId, agentId)
      .then((agent) => current && setName(agent?.name ?? agentId))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [workspaceId, agentId, label, shared]);
  // A shared chat names the agents its delegations refer to (an agent deleted since stays unnamed).
  if (shared) return label ?? (agentId ? (shared.agentNames.get(agentId) ?? 'a sub-agent') : undefined);
  return label ?? name;
}

const NO_ATTEMPTS: Chat[] = [];

/**
 * Every attempt of a call (a retried delegation has several), oldest first, from the parent's
 * sub-chat list in the cache. `load`: read the list when the cache does not have it yet;
 * otherwise whatever the delegation flow or another block read is shown.
 */
export function useSubChatAttempts(workspaceId: string, parentChatId: string, toolCallId: string, load = false): Chat[] {
  const shared = useSharedChat();
  const query = useQuery({
    queryKey: queryKeys.subChats(workspaceId, parentChatId),
    queryFn: () => api.chats.subChats(workspaceId, parentChatId),
    enabled: load && !shared,
    // Read again when something changes it (a retry: forgetSubChats), not per block mounting.
    staleTime: Infinity,
  });
  const data = shared ? shared.subChatsOf.get(parentChatId) : query.data;
  return useMemo(() => (data ? data.filter((c) => c.parentToolCallId === toolCallId).sort((a, b) => a.attempt - b.attempt) : NO_ATTEMPTS), [data, toolCallId]);
}

/** The stored sub-chat of a call (its newest attempt), loading the parent's sub-chat list once for all its blocks. */
export function useStoredSubChat(workspaceId: string, parentChatId: string, toolCallId: string, needed: boolean): Chat | undefined {
  return useSubChatAttempts(workspaceId, parentChatId, toolCallId, needed).at(-1);
}
