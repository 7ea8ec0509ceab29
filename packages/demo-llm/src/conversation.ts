// What the demo model's script reads from a request: the task, the sub-agent listing,
// `/delegate` lines, the latest batch of tool calls and their results, and the notes.
// Pure functions of the request; the rules that use them live in script.ts.
import { type ChatMessage, type ChatRequest, type WireToolCall, contentText } from './wire';

export interface SubAgentListing {
  name: string;
  id: string;
}

export const DELEGATE_LINE = /^\s*\/delegate\s+([^:\n]+?)\s*:\s*(\S.*?)\s*$/i;
// The backend lists sub-agents as `- <Name> (id: <id>): <description>`.
const LISTING_LINE = /^\s*-\s+(.+?)\s+\(id:\s*([^)\s]+)\s*\)\s*(?::.*)?$/;
const WORK_MARKER = /\[demo:work\s+(\d+)\]/i;
/** Keeps a typo like `[demo:work 99999999]` from turning into a run that never ends. */
export const WORK_LIMIT = 1000;

export function parseSubAgentListing(text: string): SubAgentListing[] {
  const found: SubAgentListing[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = LISTING_LINE.exec(line);
    if (m) found.push({ name: m[1]!.trim(), id: m[2]! });
  }
  return found;
}

/** `[files]` (the latest message's files) or `[files: id, id]` (those ids) on a `/delegate` line. */
const FILES_TOKEN = /\s*\[files(?::([^\]]*))?\]/i;

export interface DelegateLine {
  name: string;
  task: string;
  /** What `[files…]` asks to pass on: the latest message's files, or the ids written. */
  files?: 'latest' | string[];
}

export function parseDelegateLines(text: string): DelegateLine[] {
  const found: DelegateLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = DELEGATE_LINE.exec(line);
    if (!m) continue;
    const name = m[1]!.replace(/\s+/g, ' ');
    const token = FILES_TOKEN.exec(m[2]!);
    if (!token) {
      found.push({ name, task: m[2]! });
      continue;
    }
    const files = token[1] === undefined ? 'latest' : token[1].split(/[\s,]+/).filter(Boolean);
    found.push({ name, task: m[2]!.replace(FILES_TOKEN, '').trim() || '(no task given)', files });
  }
  return found;
}

/** A file as Baton lists it in `newTask`'s description: `- <name> (<type>, file id: <id>)`, `[latest message]` on the latest message's. */
const FILE_LINE = /^\s*-\s+(.+?)\s+\(([^,()]+),\s*file id:\s*([^)\s]+)\)(\s+\[latest message\])?\s*$/;

export interface FileListing {
  name: string;
  mediaType: string;
  id: string;
  latest: boolean;
}

export function parseFileListing(text: string): FileListing[] {
  const found: FileListing[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = FILE_LINE.exec(line);
    if (m) found.push({ name: m[1]!, mediaType: m[2]!.trim(), id: m[3]!, latest: m[4] !== undefined });
  }
  return found;
}

export const TOOL_LINE = /^\s*\/tool\s+([A-Za-z0-9_-]{1,64})(?:\s+(.*?))?\s*$/i;

/** `/tool <name> <json object>` lines (no JSON: `{}`); a line whose JSON is not an object is ignored. */
export function parseToolLines(text: string): { name: string; arguments: Record<string, unknown> }[] {
  const found: { name: string; arguments: Record<string, unknown> }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = TOOL_LINE.exec(line);
    if (!m) continue;
    const args = m[2] ? parseJson(m[2]) : {};
    if (args) found.push({ name: m[1]!, arguments: args });
  }
  return found;
}

/** How many notes `[demo:work N]` asks for (capped at WORK_LIMIT), or undefined without a usable marker. */
export function parseWorkMarker(text: string): number | undefined {
  const m = WORK_MARKER.exec(text);
  const n = m ? Number(m[1]) : 0;
  return n >= 1 ? Math.min(n, WORK_LIMIT) : undefined;
}

export const findTool = (request: ChatRequest, name: string) => request.tools?.find((t) => t.function.name === name);

// Loops rather than findLast/findLastIndex: the shared tsconfig targets ES2022.
export function lastIndexWhere<T>(items: T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}

export const lastUserIndex = (messages: ChatMessage[]) => lastIndexWhere(messages, (m) => m.role === 'user');

/** The task, or "your message": the last user message. */
export const taskText = (request: ChatRequest) => contentText(request.messages[lastUserIndex(request.messages)]);

export const systemText = (request: ChatRequest) =>
  request.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map(contentText)
    .join('\n');

export function subAgentListing(request: ChatRequest): SubAgentListing[] {
  return [findTool(request, 'newTask')?.function.description ?? '', systemText(request)].flatMap(parseSubAgentListing);
}

/** The conversation's files, as the `newTask` description lists them. */
export const fileListing = (request: ChatRequest): FileListing[] => parseFileListing(findTool(request, 'newTask')?.function.description ?? '');

export const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

export function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A tool output as `result` + optional `status` and `outcome`. `newTask` outputs are JSON
 * objects (`result`, `status`, `outcome`, and fields such as `subChatId`, `usage`,
 * `truncated` that the script does not need); anything else is shown raw.
 */
export function describeToolOutput(raw: string): { result: string; status?: string; outcome?: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { result: raw };
  }
  if (typeof value === 'string') return { result: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('result' in value || 'status' in value)) return { result: raw };
  const { result, status, outcome } = value as { result?: unknown; status?: unknown; outcome?: unknown };
  return {
    result: typeof result === 'string' ? result : result === undefined ? '(no result)' : JSON.stringify(result),
    ...(typeof status === 'string' ? { status } : {}),
    ...(typeof outcome === 'string' ? { outcome } : {}),
  };
}

export interface ToolBatch {
  calls: WireToolCall[];
  results: ChatMessage[];
}

/** The latest assistant message with tool calls, and the tool messages after it. */
export function latestBatch(request: ChatRequest): ToolBatch {
  const messages = request.messages;
  const start = lastIndexWhere(messages, (m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0);
  return {
    calls: start >= 0 ? messages[start]!.tool_calls! : [],
    results: messages.slice(start + 1).filter((m) => m.role === 'tool'),
  };
}

function callsOf(messages: ChatMessage[], name: string): WireToolCall[] {
  return messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).filter((c) => c.function.name === name);
}

/** Calls of `name` made since the task was given (the sub-agent's own steps). */
export const callsSinceTask = (request: ChatRequest, name: string) => callsOf(request.messages.slice(lastUserIndex(request.messages) + 1), name);

/** The `text` of every `note` call in the conversation, oldest first. */
export function noteTexts(request: ChatRequest): string[] {
  return callsOf(request.messages, 'note')
    .map((c) => parseJson(c.function.arguments)?.text)
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '');
}
