import { isNewTaskPart } from '@baton/delegation';
import { GENERAL_PURPOSE_ID, type PendingApproval } from '@baton/schemas';
import type { UIMessage } from 'ai';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { run } from '../db/schema';
import { findAgentsByIds } from './agents';
import { loadHistory } from './messages';
import { latestRunForMessage } from './runs';

type Part = { type: string; toolCallId?: string; state?: string; input?: unknown };

export interface AwaitingCall {
  toolCallId: string;
  subAgentId: string;
  task: string;
}

/** The `newTask` calls of a message that wait for a person's decision (AI SDK state `approval-requested`). */
export function awaitingCalls(message: UIMessage | undefined): AwaitingCall[] {
  if (!message || message.role !== 'assistant') return [];
  return (message.parts as unknown as Part[]).flatMap((part) => {
    if (!isNewTaskPart(part) || part.state !== 'approval-requested' || !part.toolCallId) return [];
    const input = (part.input ?? {}) as { subAgentId?: unknown; task?: unknown };
    return [{ toolCallId: part.toolCallId, subAgentId: String(input.subAgentId ?? ''), task: String(input.task ?? '') }];
  });
}

/** Sub-chats of a message's `newTask` calls that paused for approval (their progress says so). */
function pausedSubChatIds(message: UIMessage | undefined): string[] {
  if (!message || message.role !== 'assistant') return [];
  return (message.parts as unknown as (Part & { preliminary?: boolean; output?: { status?: unknown; subChatId?: unknown } })[]).flatMap((part) =>
    isNewTaskPart(part) && part.preliminary && part.output?.status === 'awaiting_approval' && typeof part.output.subChatId === 'string'
      ? [part.output.subChatId]
      : [],
  );
}

/**
 * The pending approvals of a chat's last message, named for people: the sub-agent's current
 * name, and when the answer paused (the end of the run that asked). A sub-agent's own calls
 * waiting below (their `newTask` progress says `awaiting_approval`) are listed too, with the
 * sub-chat to decide them on. Two small queries per level, and only when something waits.
 */
export async function pendingApprovalsOf(
  db: Database,
  workspaceId: string,
  chatId: string,
  last: UIMessage | undefined,
  depth = 0,
): Promise<PendingApproval[]> {
  const below: PendingApproval[] = [];
  // A tree is at most MAX_DELEGATION_DEPTH levels deep.
  if (depth < 3) {
    for (const subChatId of pausedSubChatIds(last)) {
      below.push(...(await pendingApprovalsOf(db, workspaceId, subChatId, (await loadHistory(db, subChatId)).at(-1), depth + 1)));
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

/** The paused run of a message is settled once every call it asked about is decided (its answer goes on in a new run). */
export async function settleAwaitingRuns(db: Database, chatId: string): Promise<void> {
  await db
    .update(run)
    .set({ status: 'succeeded' })
    .where(and(eq(run.chatId, chatId), eq(run.status, 'awaiting_approval')));
}
