'use client';

import { GENERAL_PURPOSE_LISTING, isGeneralPurpose } from '@baton/delegation';
import type { Chat } from '@baton/schemas';
import { useEffect, useState } from 'react';
import { findWorkspaceAgent, knownAgentName } from '@/lib/agent-directory';
import { listSubChats } from '@/lib/sub-chats-api';
import { useDelegationStore } from '@/stores/delegation-store';

/*
 * What a delegation block needs when the delegation did not run in this page session
 * (an older message, or after a reload): the sub-agent's name and the stored sub-chat
 * (status, timestamps). Both are shared by every block of the transcript.
 */

/**
 * The sub-agent's name for a block: the general-purpose sub-agent's own label, or the name
 * from the workspace's (cached) agent list — known on the first render when the list is
 * already here. Undefined while it loads; the id itself only for an agent no longer in the
 * list (deleted), the one thing left to show then.
 */
export function useSubAgentName(workspaceId: string, agentId: string | undefined): string | undefined {
  const label = agentId && isGeneralPurpose(agentId) ? GENERAL_PURPOSE_LISTING.name : undefined;
  const [name, setName] = useState<string | undefined>(() => (agentId && !label ? knownAgentName(workspaceId, agentId) : undefined));
  useEffect(() => {
    if (label || !agentId) return;
    let current = true;
    findWorkspaceAgent(workspaceId, agentId)
      .then((agent) => current && setName(agent?.name ?? agentId))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [workspaceId, agentId, label]);
  return label ?? name;
}

const loading = new Map<string, Promise<void>>();

/** The stored sub-chat of a call, loading the parent's sub-chat list once for all its blocks. */
export function useStoredSubChat(workspaceId: string, parentChatId: string, toolCallId: string, needed: boolean): Chat | undefined {
  const stored = useDelegationStore((s) => s.subChatsByParent[parentChatId]?.[toolCallId]);
  const listed = useDelegationStore((s) => Boolean(s.subChatsByParent[parentChatId]));
  useEffect(() => {
    if (!needed || listed || loading.has(parentChatId)) return;
    const load = listSubChats(workspaceId, parentChatId)
      .then((chats) => useDelegationStore.getState().setSubChats(parentChatId, chats))
      .catch(() => {})
      .finally(() => loading.delete(parentChatId));
    loading.set(parentChatId, load);
  }, [workspaceId, parentChatId, needed, listed]);
  return stored;
}
