import { type BatonMessageMetadata, readMessageMetadata, type SharedChat, type SharedMessage, type SharedSubChat } from '@baton/schemas';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { file } from '../db/schema';
import { notFound } from '../errors';
import type { FileStore } from '../storage/file-store';
import type { MessageRow } from './chat-rows';
import { chatSubtree } from './chat-subtree';
import { agentNames, type ChatTreeNode, delegatedAgentIds, loadChatTree, replaceIds, treeNodes } from './chat-tree';
import { readChatFile } from './files';
import { resolveShareToken } from './shares';
import { subChatStatus } from './sub-chat-state';

/**
 * What a share link shows: the chat and every sub-chat below it, under the share's own ids.
 * Chat, message and agent ids become `c1`, `m1`, `a1`… (in the parts too: a delegation's
 * `subChatId`, a `newTask` call's `subAgentId`), files are served through the link
 * (`/api/shared/<token>/files/<id>`), and message metadata keeps only what the page shows.
 * Nothing else of the workspace, its people or its agents is in it.
 */
export async function readSharedChat(db: Database, token: string): Promise<SharedChat> {
  const grant = await resolveShareToken(db, token);
  const tree = await loadChatTree(db, grant.owner, grant.chatId);
  const nodes = treeNodes(tree);
  const names = await agentNames(db, grant.owner.workspaceId, delegatedAgentIds(tree));

  const ids = new Map<string, string>();
  for (const [i, n] of nodes.entries()) ids.set(n.row.id, `c${i}`);
  let messages = 0;
  for (const n of nodes) for (const m of n.messages) ids.set(m.id, `m${++messages}`);
  const agents: SharedChat['chat']['agents'] = [];
  for (const [id, name] of names) {
    const alias = `a${agents.length + 1}`;
    ids.set(id, alias);
    agents.push({ id: alias, name });
  }
  // Any other id a delegation names (an agent deleted since) is not shown either.
  for (const id of delegatedAgentIds(tree)) if (!ids.has(id)) ids.set(id, 'unknown-agent');
  ids.set(grant.owner.workspaceId, 'workspace');
  ids.set(grant.owner.userId, 'user');

  const filePrefix = `/api/workspaces/${encodeURIComponent(grant.owner.workspaceId)}/files/`;
  const sharedFiles = `/api/shared/${encodeURIComponent(token)}/files/`;
  const rewrite = (s: string) => (s.includes(filePrefix) ? s.replaceAll(filePrefix, sharedFiles) : s);
  const share = <T>(value: T) => replaceIds(value, ids, rewrite);

  const toMessage = (m: MessageRow): SharedMessage => ({
    id: ids.get(m.id)!,
    role: m.role,
    parts: share(m.parts),
    metadata: shownMetadata(m.metadata),
    createdAt: m.createdAt.toISOString(),
  });
  const toSubChat = (n: ChatTreeNode): SharedSubChat => ({
    id: ids.get(n.row.id)!,
    parentToolCallId: n.row.parentToolCallId,
    attempt: n.row.attempt,
    title: share(n.row.title),
    agentName: n.agentName,
    task: share(n.row.delegateTask),
    result: share(n.row.delegateResult),
    status: subChatStatus(n.row),
    outcome: n.row.outcome,
    depth: n.row.depth - tree.row.depth,
    notes: share(n.row.notes),
    usage: { inputTokens: n.row.inputTokens, outputTokens: n.row.outputTokens },
    createdAt: n.row.createdAt.toISOString(),
    updatedAt: n.row.updatedAt.toISOString(),
    messages: n.messages.map(toMessage),
    subChats: n.children.map(toSubChat),
  });
  return {
    chat: {
      id: ids.get(tree.row.id)!,
      title: share(tree.row.title),
      agentName: tree.agentName,
      createdAt: tree.row.createdAt.toISOString(),
      updatedAt: tree.row.updatedAt.toISOString(),
      messages: tree.messages.map(toMessage),
      subChats: tree.children.map(toSubChat),
      agents,
    },
    expiresAt: grant.expiresAt?.toISOString() ?? null,
  };
}

/** The metadata the page shows (model, tokens, timing); the agent's id, a remote agent's task id and anything unknown stay out. */
function shownMetadata(stored: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!stored) return null;
  const { agentId: _agentId, remoteTaskId: _remoteTaskId, ...shown }: BatonMessageMetadata = readMessageMetadata(stored);
  return shown;
}

/**
 * A file of the shared tree, read through the link (the bytes, served as `GET …/files/:id`
 * serves them): only a file that belongs to one of the shared chats, else 404.
 */
export async function readSharedFile(db: Database, store: FileStore, token: string, fileId: string) {
  const grant = await resolveShareToken(db, token);
  const subtree = chatSubtree(db, grant.chatId, grant.owner);
  const [row] = await db
    .with(subtree.cte)
    .select({ chatId: file.chatId })
    .from(file)
    .where(and(eq(file.id, fileId), eq(file.workspaceId, grant.owner.workspaceId), inArray(file.chatId, db.select({ id: subtree.id }).from(subtree.cte))))
    .limit(1);
  const found = row?.chatId ? await readChatFile(db, store, { workspaceId: grant.owner.workspaceId, chatId: row.chatId, fileId }) : undefined;
  if (!found) throw notFound('File', fileId);
  return found;
}
