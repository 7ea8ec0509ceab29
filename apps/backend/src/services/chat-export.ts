import { CHAT_EXPORT_VERSION, type ChatExport, type ExportedChat, readMessageMetadata } from '@baton/schemas';
import type { Database } from '../db/client';
import type { FileStore } from '../storage/file-store';
import { exportedFiles } from './chat-export-files';
import type { ChatOwner } from './chat-rows';
import { type ChatTreeNode, loadChatTree } from './chat-tree';
import { chatTrace } from './trace';

/**
 * A chat as a file its author takes away: JSON (every message as stored, every sub-chat
 * below it, the delegation trace, the files the messages name; `version` says the shape, and
 * `POST …/chats/import` reads it back) or Markdown (the conversation to read, sub-chats
 * quoted under the delegation that started them). The files' bytes are read for JSON only.
 */
export async function exportChat(
  db: Database,
  owner: ChatOwner,
  chatId: string,
  opts: { now?: Date; files?: FileStore } = {},
): Promise<{ tree: ChatTreeNode; data: ChatExport }> {
  const tree = await loadChatTree(db, owner, chatId);
  const { root: trace } = await chatTrace(db, owner, chatId);
  const files = opts.files ? await exportedFiles(db, opts.files, owner, tree) : { files: [], filesLeftOut: [] };
  return { tree, data: { version: CHAT_EXPORT_VERSION, exportedAt: (opts.now ?? new Date()).toISOString(), chat: exportedChat(tree), trace, ...files } };
}

function exportedChat(node: ChatTreeNode): ExportedChat {
  const { row } = node;
  return {
    id: row.id,
    title: row.title,
    agentId: row.agentId,
    agentName: node.agentName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens },
    delegation: row.parentChatId
      ? {
          parentToolCallId: row.parentToolCallId,
          attempt: row.attempt,
          task: row.delegateTask,
          result: row.delegateResult,
          outcome: row.outcome,
          contextMode: row.contextMode,
          context: row.delegateContext,
          notes: row.notes,
        }
      : null,
    messages: node.messages.map((m) => ({ id: m.id, role: m.role, parts: m.parts, metadata: m.metadata ?? null, createdAt: m.createdAt.toISOString() })),
    subChats: node.children.map(exportedChat),
  };
}

/** A file name for the download: the title's letters, digits and a few marks (the header carries the exact title too). */
export function exportFileName(title: string, extension: 'json' | 'md'): string {
  const base = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .slice(0, 80)
    .trim();
  return `${base || 'chat'}.${extension}`;
}

type Part = { type: string; text?: unknown; input?: unknown; output?: unknown; errorText?: unknown; state?: unknown; filename?: unknown; url?: unknown };

/** The conversation as Markdown: each message under who wrote it; a delegation's sub-chat quoted below its call. */
export function chatMarkdown(tree: ChatTreeNode, exportedAt: Date): string {
  const lines = [
    `# ${oneLine(tree.row.title) || 'Untitled chat'}`,
    '',
    `_Exported from Baton on ${exportedAt.toISOString()}${tree.agentName ? ` · agent: ${tree.agentName}` : ''}_`,
    '',
  ];
  lines.push(...conversation(tree));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function conversation(node: ChatTreeNode): string[] {
  const out: string[] = [];
  const children = new Map(node.children.map((c) => [`${c.row.parentToolCallId}`, c] as const));
  // The newest attempt of a retried call is the one its block shows; each attempt is a child.
  for (const c of node.children)
    if ((children.get(`${c.row.parentToolCallId}`)?.row.attempt ?? 0) < c.row.attempt) children.set(`${c.row.parentToolCallId}`, c);
  for (const m of node.messages) {
    if (m.role === 'system') continue;
    // Each answer names the agent that wrote it: a chat may have switched agents since.
    const { agentName, modelId } = m.role === 'assistant' ? readMessageMetadata(m.metadata) : {};
    const who = m.role === 'user' ? 'You' : (agentName ?? node.agentName ?? 'Agent');
    const model = modelId;
    out.push(`### ${who}${model ? ` (${model})` : ''}`, '');
    for (const part of m.parts as Part[]) out.push(...partMarkdown(part, children));
  }
  return out;
}

function partMarkdown(part: Part, subChats: Map<string, ChatTreeNode>): string[] {
  if (part.type === 'text' && typeof part.text === 'string') return [part.text, ''];
  if (part.type === 'file') return [`📎 ${typeof part.filename === 'string' ? part.filename : 'a file'}`, ''];
  if (part.type === 'tool-newTask') {
    const input = (part.input ?? {}) as { task?: unknown };
    const call = part as { toolCallId?: string };
    const sub = subChats.get(`${call.toolCallId}`);
    const output = (part.output ?? {}) as { result?: unknown; outcome?: unknown };
    const name = sub?.agentName ?? 'a sub-agent';
    const ending = typeof output.outcome === 'string' ? output.outcome : sub?.row.outcome;
    const lines = [`**Delegated to ${name}**${ending ? ` — ${ending}` : ''}`, '', `Task: ${typeof input.task === 'string' ? input.task : ''}`, ''];
    const result = typeof output.result === 'string' ? output.result : part.state === 'output-error' ? String(part.errorText ?? '') : undefined;
    if (result) lines.push('Result:', '', result, '');
    if (sub) lines.push(`#### The conversation of ${name}`, '', ...conversation(sub));
    return [...lines.map((l) => (l ? `> ${l}` : '>')), ''];
  }
  if (part.type === 'tool-taskResult') return [];
  if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') {
    const name = part.type === 'dynamic-tool' ? String((part as { toolName?: unknown }).toolName ?? 'tool') : part.type.slice('tool-'.length);
    const body = [`Tool call \`${name}\``, '', ...fenced(JSON.stringify(part.input ?? null, null, 2)), ''];
    if (part.output !== undefined) body.push('Output:', '', ...fenced(JSON.stringify(part.output, null, 2)), '');
    else if (typeof part.errorText === 'string') body.push(`Error: ${part.errorText}`, '');
    return body.map((l) => (l ? `> ${l}` : '>')).concat('');
  }
  return [];
}

/** A JSON code block whose fence is longer than any run of backticks inside it. */
function fenced(code: string): string[] {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}json`, ...code.split('\n'), fence];
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
