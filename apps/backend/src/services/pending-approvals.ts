import { awaitingApprovalCalls, isCallAtWork, isToolCallPart, newTaskCalls } from '@baton/delegation';
import { GENERAL_PURPOSE_ID, type BatonUIMessage, type PendingApproval } from '@baton/schemas';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { chat, run } from '../db/schema';
import { findAgentsByIds } from './agents';
import { loadHistory } from './messages';
import { findActiveRun, latestRunForMessage } from './runs';
import { subChatAtWork } from './sub-chat-state';

export interface AwaitingCall {
  toolCallId: string;
  subAgentId: string;
  task: string;
}

/** The `newTask` calls of a message that wait for a person's decision (AI SDK state `approval-requested`). */
export function awaitingCalls(message: BatonUIMessage | undefined): AwaitingCall[] {
  return awaitingApprovalCalls(message).map((call) => ({
    toolCallId: call.toolCallId,
    subAgentId: call.input.subAgentId ?? '',
    task: call.input.task ?? '',
  }));
}

/**
 * The running sub-chats of a message's `newTask` calls that have no final output yet (found
 * by their call, so it works for both flows): where a sub-agent's own call may wait.
 */
async function workingSubChatIds(db: Database, chatId: string, message: BatonUIMessage | undefined): Promise<string[]> {
  if (!message || message.role !== 'assistant') return [];
  const ids = newTaskCalls(message)
    .filter(isCallAtWork)
    .map((c) => c.toolCallId);
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: chat.id })
    .from(chat)
    .where(and(eq(chat.parentChatId, chatId), inArray(chat.parentToolCallId, ids), subChatAtWork()));
  return rows.map((r) => r.id);
}

/**
 * The pending approvals of a chat's last message, named for people: the sub-agent's current
 * name, and when the answer paused (the end of the run that asked). A sub-agent's own calls
 * waiting below (in the running sub-chats of calls without a result yet) are listed too,
 * with the sub-chat to decide them on. A few small queries per level, and only when a call
 * waits or a sub-agent works.
 */
export async function pendingApprovalsOf(
  db: Database,
  workspaceId: string,
  chatId: string,
  last: BatonUIMessage | undefined,
  depth = 0,
): Promise<PendingApproval[]> {
  const below: PendingApproval[] = [];
  // A tree is at most MAX_DELEGATION_DEPTH levels deep.
  if (depth < 3) {
    for (const subChatId of await workingSubChatIds(db, chatId, last)) {
      // Its calls wait for a decision once its run has ended (paused); before that, deciding would be refused.
      const paused = !(await findActiveRun(db, subChatId));
      const last = (await loadHistory(db, subChatId)).at(-1);
      below.push(...(await pendingApprovalsOf(db, workspaceId, subChatId, paused ? last : withoutWaitingCalls(last), depth + 1)));
    }
  }
  const calls = awaitingCalls(last);
  if (calls.length === 0 || !last) return below;
  const [agents, asking] = await Promise.all([
    findAgentsByIds(
      db,
      workspaceId,
      calls.map((c) => c.subAgentId),
    ),
    latestRunForMessage(db, chatId, last.id),
  ]);
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const requestedAt = (asking?.endedAt ?? asking?.startedAt ?? new Date()).toISOString();
  const own = calls.map((c) => ({
    chatId,
    toolCallId: c.toolCallId,
    subAgentId: c.subAgentId,
    subAgentName: c.subAgentId === GENERAL_PURPOSE_ID ? GENERAL_PURPOSE_ID : (names.get(c.subAgentId) ?? c.subAgentId),
    task: c.task,
    requestedAt,
  }));
  return [...own, ...below];
}

/** A message whose waiting calls are not listed (its run is still ending), though its working sub-chats are. */
export function withoutWaitingCalls(message: BatonUIMessage | undefined): BatonUIMessage | undefined {
  if (!message) return message;
  return { ...message, parts: message.parts.filter((p) => !(isToolCallPart(p) && p.state === 'approval-requested')) };
}

/** The chats with a paused answer (a run `awaiting_approval`), deepest first. */
export async function chatsWithPausedAnswers(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: chat.id, depth: chat.depth })
    .from(run)
    .innerJoin(chat, eq(chat.id, run.chatId))
    .where(eq(run.status, 'awaiting_approval'))
    .orderBy(desc(chat.depth));
  return rows.map((r) => r.id);
}
