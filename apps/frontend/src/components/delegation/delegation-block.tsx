'use client';

import type { ToolUIPart } from 'ai';

/**
 * CONTRACT (owned by the delegation work): how a parent's `newTask` call renders in the
 * transcript — sub-agent, task, status, duration, result; expanding loads the sub-chat.
 * The chat UI renders `<DelegationBlock>` for every `tool-newTask` part.
 */
export function DelegationBlock({ part }: { workspaceId: string; parentChatId: string; part: ToolUIPart }) {
  const input = part.input as { subAgentId?: string; task?: string } | undefined;
  return (
    <div className="rounded-lg border border-neutral-200 px-3 py-2 text-sm dark:border-neutral-800">
      <span className="font-medium">Delegated task</span> {input?.task ?? ''} <span className="text-neutral-500">({part.state})</span>
    </div>
  );
}
