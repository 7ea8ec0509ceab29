import { type ChatImport, type ExportedChat, MAX_IMPORT_CHATS, MAX_IMPORT_DEPTH, MAX_IMPORT_MESSAGES } from '@baton/schemas';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent, chat, message } from '../db/schema';
import { placeImportedFiles, storeImportedFiles } from './chat-export-files';
import type { FileSettings } from './files';
import { removingCreatedOnFailure } from './message-files';
import { invalidRequest } from '../errors';
import { generateMessageId, newId } from '../ids';
import { chatOrigin } from './chat-origin';
import type { ChatOwner, NewChatRow } from './chat-rows';
import { replaceIds } from './chat-tree';
import { sanitizeDeep } from './text-hygiene';

/** Rows per INSERT: well below Postgres's 65,535 parameters per statement. */
const INSERT_BATCH = 500;
const UNFINISHED_STATES = new Set(['input-streaming', 'input-available', 'approval-requested', 'approval-responded']);
export const UNFINISHED_CALL_TEXT = 'This call had not finished when the chat was exported.';

/**
 * A chat export (`GET …/chats/:id/export?format=json`) made into a chat of the caller's
 * workspace, with its sub-chats, in one transaction: every chat and message gets a fresh id
 * (ids are global, and the export may come from this very instance), and the parts are
 * rewritten to name them. Agents are matched in this workspace by id, then by name; an agent
 * that is not here leaves the chat without one (readable; pick an agent to go on). What the
 * export left unfinished (a call without output, a delegation waiting for approval, a
 * sub-chat still running) is imported as ended, so nothing starts to run on its own. The
 * export's files are stored again as the importer's, and the parts name their new URLs.
 */
export async function importChat(db: Database, settings: FileSettings, owner: ChatOwner, input: ChatImport, now = new Date()): Promise<{ id: string }> {
  const chats = flatten(input.chat);
  const ids = new Map<string, string>();
  for (const { node } of chats) {
    if (ids.has(node.id)) throw invalidRequest(`invalid import: the chat id "${node.id}" appears twice`);
    ids.set(node.id, newId('chat'));
    for (const m of node.messages) {
      if (ids.has(m.id)) throw invalidRequest(`invalid import: the message id "${m.id}" appears twice`);
      ids.set(m.id, generateMessageId());
    }
  }
  if (chats.length > MAX_IMPORT_CHATS) throw invalidRequest(`invalid import: more than ${MAX_IMPORT_CHATS} chats`);
  if (ids.size - chats.length > MAX_IMPORT_MESSAGES) throw invalidRequest(`invalid import: more than ${MAX_IMPORT_MESSAGES} messages`);

  return removingCreatedOnFailure(settings.store, (track) =>
    db.transaction(async (tx) => {
      const agents = await matchAgents(tx, owner.workspaceId, chats);
      const files = await storeImportedFiles(tx, settings, owner, input.files ?? [], track);
      // A delegation's `subAgentId` names the agent here when there is one; otherwise it stays as exported (the block shows it unnamed).
      // A file's exported URL names its new copy.
      const rewrite = new Map([...ids, ...agents, ...[...files].map(([url, f]) => [url, f.url] as const)]);
      const chatRows: NewChatRow[] = chats.map(({ node, parentId, depth }) => {
        const d = node.delegation;
        const top = parentId === null;
        const createdAt = node.createdAt ? new Date(node.createdAt) : now;
        return {
          id: ids.get(node.id)!,
          workspaceId: owner.workspaceId,
          userId: owner.userId,
          agentId: (node.agentId && agents.get(node.agentId)) ?? null,
          title: node.title.trim() || 'Imported chat',
          parentChatId: top ? null : ids.get(parentId)!,
          parentToolCallId: top ? null : (d?.parentToolCallId ?? null),
          attempt: top ? 1 : (d?.attempt ?? 1),
          delegateTask: top ? null : (d?.task ?? null),
          delegateResult: top ? null : (d?.result ?? null),
          // A sub-chat exported mid-run ran on another instance: here it is over.
          outcome: top ? null : (d?.outcome ?? 'interrupted'),
          depth,
          contextMode: top ? null : (d?.contextMode ?? null),
          delegateContext: top ? null : (d?.context ?? null),
          notes: top ? [] : (d?.notes ?? []),
          inputTokens: node.usage?.inputTokens ?? 0,
          outputTokens: node.usage?.outputTokens ?? 0,
          // The sub-agents' own times make their durations; the chat itself is new to this list.
          createdAt,
          updatedAt: top ? now : node.updatedAt ? new Date(node.updatedAt) : createdAt,
          ...(top ? chatOrigin(owner) : {}),
        };
      });
      const messageRows = chats.flatMap(({ node }) =>
        node.messages.map((m, i) => ({
          id: ids.get(m.id)!,
          chatId: ids.get(node.id)!,
          role: m.role,
          parts: sanitizeDeep(endUnfinished(replaceIds(m.parts, rewrite))),
          metadata: m.metadata ? sanitizeDeep(replaceIds(m.metadata, rewrite)) : null,
          seq: i + 1,
          // An export holds one branch (the active one): imported, it is a chain, each message after the one before.
          parentId: i === 0 ? null : ids.get(node.messages[i - 1]!.id)!,
          createdAt: m.createdAt ? new Date(m.createdAt) : now,
        })),
      );
      // Parents first (flatten's order), so each sub-chat's parent row exists.
      for (let i = 0; i < chatRows.length; i += INSERT_BATCH) await tx.insert(chat).values(chatRows.slice(i, i + INSERT_BATCH));
      for (let i = 0; i < messageRows.length; i += INSERT_BATCH) await tx.insert(message).values(messageRows.slice(i, i + INSERT_BATCH));
      const topId = ids.get(input.chat.id)!;
      await placeImportedFiles(
        tx,
        topId,
        messageRows.filter((m) => m.chatId !== topId),
        files,
      );
      return { id: topId };
    }),
  );
}

interface Placed {
  node: ExportedChat;
  parentId: string | null;
  depth: number;
}

/** The tree's chats, parents before children, with their depth (checked against MAX_IMPORT_DEPTH). */
function flatten(root: ExportedChat): Placed[] {
  const out: Placed[] = [];
  // One sub-chat per attempt of a call (the database's unique index says so too).
  const calls = new Set<string>();
  const visit = (node: ExportedChat, parentId: string | null, depth: number) => {
    if (depth > MAX_IMPORT_DEPTH) throw invalidRequest(`invalid import: sub-chats nest deeper than ${MAX_IMPORT_DEPTH}`);
    if (out.length >= MAX_IMPORT_CHATS) throw invalidRequest(`invalid import: more than ${MAX_IMPORT_CHATS} chats`);
    const d = node.delegation;
    if (parentId !== null && d?.parentToolCallId) {
      const key = JSON.stringify([parentId, d.parentToolCallId, d.attempt]);
      if (calls.has(key)) throw invalidRequest(`invalid import: two sub-chats of chat "${parentId}" are attempt ${d.attempt} of call "${d.parentToolCallId}"`);
      calls.add(key);
    }
    out.push({ node, parentId, depth });
    for (const child of node.subChats) visit(child, node.id, depth + 1);
  };
  visit(root, null, 0);
  return out;
}

/**
 * Exported agent id → an agent of this workspace: the same id (an export from this
 * workspace), else the same name (ignoring case). Locked FOR KEY SHARE, so an agent deleted
 * meanwhile cannot leave a chat pointing at nothing.
 */
async function matchAgents(tx: Database, workspaceId: string, chats: Placed[]): Promise<Map<string, string>> {
  const named = new Map<string, string>();
  for (const { node } of chats) {
    if (node.agentId) named.set(node.agentId, node.agentName ?? '');
    for (const m of node.messages)
      for (const part of m.parts) {
        const input = (part as { input?: { subAgentId?: unknown } }).input;
        if (part.type === 'tool-newTask' && typeof input?.subAgentId === 'string' && !named.has(input.subAgentId)) named.set(input.subAgentId, '');
      }
  }
  if (named.size === 0) return new Map();
  const names = [...new Set([...named.values()].filter(Boolean).map((n) => n.toLowerCase()))];
  const rows = await tx
    .select({ id: agent.id, name: agent.name })
    .from(agent)
    .where(
      and(eq(agent.workspaceId, workspaceId), or(inArray(agent.id, [...named.keys()]), names.length ? inArray(sql`lower(${agent.name})`, names) : undefined)),
    )
    .for('key share');
  const byId = new Map(rows.map((r) => [r.id, r.id]));
  const byName = new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  const out = new Map<string, string>();
  for (const [id, name] of named) {
    const match = byId.get(id) ?? (name ? byName.get(name.toLowerCase()) : undefined);
    if (match) out.set(id, match);
  }
  return out;
}

/** Tool calls the export left waiting (no output, an approval pending) end with an error that says so. */
function endUnfinished<T>(parts: T[]): T[] {
  return parts.map((part) => {
    const p = part as { type?: unknown; state?: unknown };
    if (typeof p.type !== 'string' || !(p.type.startsWith('tool-') || p.type === 'dynamic-tool') || !UNFINISHED_STATES.has(String(p.state))) return part;
    const { approval: _approval, output: _output, ...rest } = part as Record<string, unknown>;
    return { ...rest, state: 'output-error', errorText: UNFINISHED_CALL_TEXT } as T;
  });
}
