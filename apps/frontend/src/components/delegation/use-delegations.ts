'use client';

import { readMessageMetadata, type BatonUIMessage } from '@baton/schemas';
import { useChat, type Chat } from '@ai-sdk/react';
import { useEffect } from 'react';
import { newTaskCalls } from '@baton/delegation';
import { delegationKey, useDelegationStore } from '@/stores/delegation-store';
import { deliverDelegation } from './delegation-outcome';
import { ensureDelegation } from './run-delegation';

/**
 * Called by the parent chat view. Each `newTask` call of the last assistant message that
 * reaches `input-available` becomes a delegation (registered once, run outside React;
 * see run-delegation.ts). The same scan resumes pending calls after a reload, and hands a
 * finished result to a session that was re-created from stored messages.
 */
export function useDelegations({ workspaceId, chat }: { workspaceId: string; chat: Chat<BatonUIMessage> }): void {
  const { messages } = useChat({ chat });
  const last = messages.at(-1);

  useEffect(() => {
    // Only the last message can still receive outputs: older pending calls were abandoned
    // when the conversation moved on, and the server would refuse their outputs.
    if (!last || last.role !== 'assistant') return;
    const { agentId } = readMessageMetadata(last.metadata);
    for (const call of newTaskCalls(last)) {
      // An approved call (`approval-responded`) is the browser's to run like any call without output.
      if (call.state !== 'input-available' && call.state !== 'approval-responded') continue;
      const key = delegationKey(chat.id, call.toolCallId);
      if (useDelegationStore.getState().delegations[key]) {
        deliverDelegation(key);
        continue;
      }
      ensureDelegation({
        workspaceId,
        parentChatId: chat.id,
        parentAgentId: agentId,
        call,
      });
    }
  }, [last, chat, workspaceId]);
}
