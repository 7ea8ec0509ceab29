'use client';

import type { ToolUIPart } from 'ai';

/** CONTRACT (owned by the delegation work): a sub-agent's `taskResult` call in a sub-chat transcript. */
export function TaskResultBlock({ part }: { part: ToolUIPart }) {
  const input = part.input as { result?: string; status?: string } | undefined;
  return (
    <div className="rounded-lg border border-neutral-200 px-3 py-2 text-sm dark:border-neutral-800">
      <span className="font-medium">Result ({input?.status ?? '…'})</span> {input?.result ?? ''}
    </div>
  );
}
