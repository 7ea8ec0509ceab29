import { awaitingApprovalCalls, newTaskCalls } from '@baton/delegation';
import type { BatonUIMessage } from '@baton/schemas';

/**
 * Newest message still waiting for sub-agents: its complete `newTask` calls without an
 * output. A call still being written is not counted: it has no delegation yet that could
 * be opened or cancelled, and it is the answer itself that is still running.
 */
export function pendingNewTaskCount(messages: BatonUIMessage[]): number {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant') return 0;
  // A call waiting for a person's approval (or approved and about to start) holds the answer too.
  return newTaskCalls(last).filter((c) => c.state === 'input-available' || c.state === 'approval-requested' || c.state === 'approval-responded').length;
}

/** Calls of the newest message waiting for a person to approve or reject them. */
export function awaitingApprovalCount(messages: BatonUIMessage[]): number {
  return awaitingApprovalCalls(messages.at(-1)).length;
}
