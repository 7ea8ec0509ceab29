import {
  readMessageMetadata,
  type Chat,
  type ChatListQuery,
  type ChatWithMessages,
  type Message,
  type MessageFeedback,
  type MessageVersions,
  type Page,
} from '@baton/schemas';
import type { Database } from '../db/client';
import { pinnedChatRows, requireChat, subChatRows, topLevelChatRows } from './chat-repository';
import type { ChatOwner, ChatRow, MessageRow } from './chat-rows';
import { chatUsage } from './chat-usage';
import { ownFeedbackByMessage } from './feedback';
import { versionsOfActiveBranch } from './message-branches';
import { chatMessageRows, toUIMessage } from './messages';
import { toPage } from './pagination';
import { pendingApprovalsOf, withoutWaitingCalls } from './pending-approvals';
import { findActiveRun, toRun } from './runs';
import { isSubChatRunning, subChatStatus } from './sub-chat-state';

/**
 * The chat as the API returns it: `Chat` for lists, `ChatWithMessages` for
 * `GET …/chats/:id`. Reads only; the rows come from chat-repository.ts (scoped by owner)
 * and the sub-chat's delegation state from sub-chat-state.ts.
 */

export function toChat(row: ChatRow): Chat {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    agentId: row.agentId,
    title: row.title,
    parentChatId: row.parentChatId,
    parentToolCallId: row.parentToolCallId,
    attempt: row.attempt,
    delegateTask: row.delegateTask,
    delegateResult: row.delegateResult,
    status: subChatStatus(row),
    outcome: row.outcome,
    depth: row.depth,
    contextMode: row.contextMode,
    delegateContext: row.delegateContext,
    effectiveToolIds: row.effectiveToolIds,
    notes: row.notes,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    source: row.source,
    apiKeyName: row.apiKeyName,
    pinned: row.pinnedAt !== null,
    archived: row.archivedAt !== null,
    modelOverride: row.modelOverride,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `feedback`: the caller's own rating of it, where it was read (a chat's messages); absent otherwise. `versions`: its place among its siblings (branches). */
export function toMessage(row: MessageRow, versions?: MessageVersions, feedback?: MessageFeedback | null): Message {
  return {
    id: row.id,
    chatId: row.chatId,
    role: row.role,
    parts: row.parts,
    metadata: row.metadata ?? null,
    ...(feedback !== undefined ? { feedback } : {}),
    createdAt: row.createdAt.toISOString(),
    ...(versions ? { versions } : {}),
  };
}

/**
 * One page of the owner's top-level chats. The first page of the main list starts with every
 * pinned chat (each `pinned: true`), then `limit` others; later pages hold only unpinned ones,
 * so the cursor is the same keyset as ever. `archived: true` lists the archive instead.
 */
export async function listTopLevelChats(db: Database, owner: ChatOwner, query: ChatListQuery): Promise<Page<Chat>> {
  const [pinned, rows] = await Promise.all([query.archived || query.cursor ? [] : pinnedChatRows(db, owner, query), topLevelChatRows(db, owner, query)]);
  const page = toPage(rows, query, (r) => ({ at: r.updatedAt, id: r.id }), toChat);
  return pinned.length ? { ...page, data: [...pinned.map(toChat), ...page.data] } : page;
}

export async function listSubChats(db: Database, owner: ChatOwner, parentChatId: string): Promise<Chat[]> {
  return (await subChatRows(db, owner, parentChatId)).map(toChat);
}

export async function getChatWithMessages(db: Database, owner: ChatOwner, id: string): Promise<ChatWithMessages> {
  const row = await requireChat(db, owner, id);
  // The run first, then what it writes: a run's end and its answer commit together, so a run
  // read as ended has its answer in the messages read after. Read at once (each query on its
  // own pool connection and snapshot), a run could end between the two: "nothing running",
  // and no answer either.
  const active = await findActiveRun(db, id);
  const [messages, versions, usage, feedback] = await Promise.all([
    chatMessageRows(db, id),
    versionsOfActiveBranch(db, id),
    chatUsage(db, owner, row),
    ownFeedbackByMessage(db, owner.userId, id),
  ]);
  const last = messages.at(-1);
  // A sub-chat that ended (its delegation stopped while it waited) has nothing left to decide.
  const deciding = last && (!row.parentChatId || isSubChatRunning(row));
  const lastMessage = last && toUIMessage(last);
  // While a run is going its own calls do not wait for a decision yet (it is still ending), though calls below it may.
  const pendingApprovals = deciding ? await pendingApprovalsOf(db, owner.workspaceId, id, active ? withoutWaitingCalls(lastMessage) : lastMessage) : [];
  // A remote (A2A) agent's answers report no tokens: the chat's own usage is unknown, not 0.
  const unknown = messages.some((m) => readMessageMetadata(m.metadata).usage?.own.unknown);
  return {
    ...toChat(row),
    messages: messages.map((m) => toMessage(m, versions.get(m.id), feedback.get(m.id) ?? null)),
    answering: Boolean(active),
    activeRun: active ? toRun(active) : null,
    usage: unknown ? { own: { ...usage.own, unknown }, delegated: usage.delegated, total: { ...usage.total, unknown } } : usage,
    pendingApprovals,
  };
}
