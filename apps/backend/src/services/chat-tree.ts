import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent, chat, message } from '../db/schema';
import { notFound } from '../errors';
import type { ChatOwner, ChatRow, MessageRow } from './chat-rows';
import { chatSubtree } from './chat-subtree';

/** A chat with its messages and every sub-chat below it, as a tree: what a share link and an export hold. */
export interface ChatTreeNode {
  row: ChatRow;
  agentName: string | null;
  messages: MessageRow[];
  children: ChatTreeNode[];
}

/**
 * `chatId` and every chat below it with their messages, in three queries whatever the
 * tree's size: the chat (owner's scope, 404 otherwise), the subtree's chats with their
 * agents' names, and all their messages. Children come in the order they were started.
 */
export async function loadChatTree(db: Database, owner: ChatOwner, chatId: string): Promise<ChatTreeNode> {
  const subtree = chatSubtree(db, chatId, owner);
  const rows = await db
    .with(subtree.cte)
    .select({ level: subtree.level, chat, agentName: agent.name })
    .from(subtree.cte)
    .innerJoin(chat, eq(chat.id, subtree.id))
    .leftJoin(agent, and(eq(agent.id, chat.agentId), eq(agent.workspaceId, chat.workspaceId)))
    .orderBy(asc(subtree.level), asc(chat.createdAt), asc(chat.id));
  if (rows.length === 0) throw notFound('Chat', chatId);
  const ids = rows.map((r) => r.chat.id);
  // The active branch of each chat (branches: docs/branches.md), as every other reader sees it.
  const messages = await db
    .select()
    .from(message)
    .where(and(inArray(message.chatId, ids), eq(message.active, true)))
    .orderBy(asc(message.chatId), asc(message.seq));
  const nodes = new Map<string, ChatTreeNode>();
  for (const r of rows) nodes.set(r.chat.id, { row: r.chat, agentName: r.agentName, messages: [], children: [] });
  for (const m of messages) nodes.get(m.chatId)?.messages.push(m);
  // Rows come level by level, so a parent is always placed before its children.
  for (const r of rows) if (r.level > 0) nodes.get(r.chat.parentChatId!)?.children.push(nodes.get(r.chat.id)!);
  return nodes.get(chatId)!;
}

/** Every node of a tree, parents before their children. */
export function treeNodes(root: ChatTreeNode): ChatTreeNode[] {
  const out: ChatTreeNode[] = [];
  const visit = (n: ChatTreeNode) => {
    out.push(n);
    n.children.forEach(visit);
  };
  visit(root);
  return out;
}

/**
 * A JSON value with every string that equals a key of `ids` replaced by its value, and
 * `rewrite` applied to the others: a message's parts name chats (a delegation's
 * `subChatId`), messages and agents by id, wherever the AI SDK or Baton put them, so a
 * share (which must not show them) and an import (which gives them fresh ids) replace them
 * all at once rather than path by path.
 */
export function replaceIds<T>(value: T, ids: ReadonlyMap<string, string>, rewrite?: (s: string) => string): T {
  if (typeof value === 'string') return (ids.get(value) ?? (rewrite ? rewrite(value) : value)) as T;
  if (Array.isArray(value)) return value.map((v) => replaceIds(v, ids, rewrite)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceIds(v, ids, rewrite);
    return out as T;
  }
  return value;
}

/** The `subAgentId`s of a tree's `newTask` calls (agents a delegation named, with or without a sub-chat). */
export function delegatedAgentIds(root: ChatTreeNode): Set<string> {
  const ids = new Set<string>();
  for (const node of treeNodes(root)) {
    if (node.row.agentId) ids.add(node.row.agentId);
    for (const m of node.messages)
      for (const part of m.parts) {
        const input = (part as { type: string; input?: { subAgentId?: unknown } }).input;
        if (part.type === 'tool-newTask' && typeof input?.subAgentId === 'string') ids.add(input.subAgentId);
      }
  }
  return ids;
}

/** Names of these agents of a workspace (agents of other workspaces are not looked at). */
export async function agentNames(db: Database, workspaceId: string, ids: Iterable<string>): Promise<Map<string, string>> {
  const list = [...ids];
  if (list.length === 0) return new Map();
  const rows = await db
    .select({ id: agent.id, name: agent.name })
    .from(agent)
    .where(and(eq(agent.workspaceId, workspaceId), inArray(agent.id, list)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
