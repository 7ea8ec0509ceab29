import { isNewTaskPart, rejectedResult, toNewTaskOutput, withCallState, type NewTaskPart } from '@baton/delegation';
import type { ApprovalDecision, BatonUIMessage, BatonUIPart, NewTaskInput, PendingApproval } from '@baton/schemas';
import { AppError, invalidRequest, notFound } from '../errors';
import { delegationRefused } from '../ops/metrics';
import { findAgent } from '../services/agents';
import type { ChatOwner } from '../services/chat-rows';
import { isSubChatRunning } from '../services/sub-chat-state';
import { loadHistory, upsertMessage } from '../services/messages';
import { awaitingCalls, pendingApprovalsOf } from '../services/pending-approvals';
import { latestRunForMessage } from '../services/runs';
import type { DelegationTree } from './delegation-tree';
import { admitRun, transitionRuns } from './runs/run-lifecycle';
import type { RuntimeDeps, TurnInput } from './runtime-types';

// Approval before spawning (the root agent's `delegation.requireApproval`). The pause is the
// AI SDK's own tool approval: `newTask` has `needsApproval`, so the step ends with the call in
// `approval-requested` and the run ends `awaiting_approval` — nothing in memory, so it
// survives reloads and restarts. A person's decision is written into that stored part:
// approve → `approval-responded` (with the edited task as the call's input), from which the
// AI SDK itself executes `newTask` when the answer continues; reject → a final `newTask`
// output with outcome `rejected`. Each call is decided on its own; the answer resumes (a new
// run continuing the same assistant message) when the last one of its step is decided.

/**
 * Whether `newTask` waits for a person here: the root governs its whole tree, so a
 * sub-agent's own calls wait too. A paused sub-chat's run ends `awaiting_approval` while
 * the sub-chat stays running; the `newTask` execution above it waits for it to end
 * (server-delegation.ts).
 */
export function needsApprovalHere(tree: DelegationTree): boolean {
  return tree.root.requireApproval;
}

export interface Decided {
  toolCallId: string;
  decision: 'approved' | 'rejected';
  task: string;
  pendingApprovals: PendingApproval[];
  /** The run that continues the answer, to start once the transaction has committed. */
  resume?: TurnInput;
}

const conflict = (message: string) => new AppError(409, 'conflict', message);

function decidedPart(part: NewTaskPart, decision: ApprovalDecision): { part: NewTaskPart; task: string } {
  const input = (part.input ?? {}) as NewTaskInput;
  if (decision.approve) {
    const task = decision.task ?? input.task;
    const approvedInput = { ...input, task };
    const approval: Record<string, unknown> = { ...part.approval, approved: true };
    // The AI SDK validates what was approved against the call's input when it executes it.
    if (Object.hasOwn(approval, 'inputSchemaInput')) approval.inputSchemaInput = approvedInput;
    return { part: withCallState(part, { input: approvedInput, state: 'approval-responded', approval }), task };
  }
  // A final output rather than the SDK's `output-denied`: the parent model gets the same
  // NewTaskOutput shape as for every other outcome, with the person's reason in `result`.
  const output = toNewTaskOutput({ outcome: 'rejected', result: rejectedResult(decision.reason), subChatId: null });
  return { part: withCallState(part, { state: 'output-available', output }, ['approval']), task: input.task };
}

/**
 * Records a person's decision on one `newTask` call waiting for approval, in one
 * transaction on the locked chat: of two decisions at once, the second waits and then
 * finds the call decided (409). Unknown call → 404; a call that does not wait → 409.
 */
export async function decideApproval(deps: RuntimeDeps, owner: ChatOwner, chatId: string, toolCallId: string, decision: ApprovalDecision): Promise<Decided> {
  const busy = 'this chat is answering right now: decide when the answer has paused';
  const decided = await admitRun(deps, { chat: { owner, id: chatId }, by: 'request', busy }, async ({ tx, chat, assertIdle, admit }) => {
    if (chat.parentChatId && !isSubChatRunning(chat))
      throw conflict('this sub-agent has ended (its delegation was stopped): nothing waits for a decision here');
    const history = await loadHistory(tx, chat.id);
    const isTheCall = (p: BatonUIPart): p is NewTaskPart => isNewTaskPart(p) && p.toolCallId === toolCallId;
    const holder = history.find((m) => m.role === 'assistant' && m.parts.some(isTheCall));
    if (!holder) throw notFound('newTask call', toolCallId);
    const current = holder.parts.find(isTheCall)!;
    if (current.state !== 'approval-requested') {
      const decided =
        current.state === 'approval-responded' ||
        current.approval !== undefined ||
        (current.output as { outcome?: string } | undefined)?.outcome === 'rejected';
      throw conflict(decided ? `newTask call "${toolCallId}" was already decided` : `newTask call "${toolCallId}" is not waiting for approval`);
    }
    await assertIdle();
    const { part, task } = decidedPart(current, decision);
    const message: BatonUIMessage = { ...holder, parts: holder.parts.map((p) => (p === current ? part : p)) };
    await upsertMessage(tx, chat.id, message);
    const pendingApprovals = await pendingApprovalsOf(tx, owner.workspaceId, chat.id, message);
    const result: Decided = { toolCallId, decision: decision.approve ? 'approved' : 'rejected', task, pendingApprovals };
    if (awaitingCalls(message).length > 0) return result;

    const asking = await latestRunForMessage(tx, chat.id, message.id);
    const mode = asking?.mode ?? 'server';
    // The paused run is done: its answer goes on in the run admitted below (or the browser's).
    await transitionRuns(tx, { chatId: chat.id }, 'awaiting_approval', 'succeeded');
    // In the browser flow the browser runs a top-level chat's approved calls (and then
    // continues the answer itself); when nothing is left for it to run, and always in a
    // sub-chat (deeper delegation is the server's), the server continues at once.
    const browserRuns = mode === 'client' && !chat.parentChatId && message.parts.some((p) => isNewTaskPart(p) && p.state === 'approval-responded');
    if (browserRuns) return result;
    const agent = chat.agentId ? await findAgent(tx, owner.workspaceId, chat.agentId) : undefined;
    if (!agent) throw invalidRequest('this chat has no agent (it may have been deleted): the answer cannot continue');
    // A continuation of the decided message.
    result.resume = await admit({ agent, history: [...history.slice(0, history.indexOf(holder)), message], mode });
    return result;
  });
  // Counted once the decision is stored (a refused decision wrote nothing).
  if (decided.decision === 'rejected') delegationRefused('rejected');
  return decided;
}
