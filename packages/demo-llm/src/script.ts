// The demo model's script: its public contract (README.md, "The script").
// Pure: the same request always yields the same turn, apart from tool-call ids,
// which the caller assigns.
import { type ChatMessage, type ChatRequest, messageText } from './wire';

export type ScriptRule = 'tool-results' | 'sub-agent' | 'delegate' | 'delegate-unavailable' | 'reply';

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptedTurn {
  rule: ScriptRule;
  text: string;
  toolCalls: ScriptedToolCall[];
  /**
   * Set by the failure tokens: `[demo:error]` → HTTP 500, `[demo:drop]` → the stream breaks
   * off, `[demo:stall]` → a few words then silence, `[demo:silent]` → no byte at all.
   */
  failure?: 'error' | 'drop' | 'stall' | 'silent';
}

export interface SubAgentListing {
  name: string;
  id: string;
}

const DELEGATE_LINE = /^\s*\/delegate\s+([^:\n]+?)\s*:\s*(\S.*?)\s*$/i;
// The backend lists sub-agents as `- <Name> (id: <id>): <description>`.
const LISTING_LINE = /^\s*-\s+(.+?)\s+\(id:\s*([^)\s]+)\s*\)\s*(?::.*)?$/;
const FAIL_WORD = /\bfail\b/i;
const ECHO_LIMIT = 500;
const SUMMARY_LIMIT = 120;

export function parseSubAgentListing(text: string): SubAgentListing[] {
  const found: SubAgentListing[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = LISTING_LINE.exec(line);
    if (m) found.push({ name: m[1]!.trim(), id: m[2]! });
  }
  return found;
}

export function parseDelegateLines(text: string): { name: string; task: string }[] {
  const found: { name: string; task: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = DELEGATE_LINE.exec(line);
    if (m) found.push({ name: m[1]!.replace(/\s+/g, ' '), task: m[2]! });
  }
  return found;
}

const findTool = (request: ChatRequest, name: string) => request.tools?.find((t) => t.function.name === name);

// Loops rather than findLast/findLastIndex: the shared tsconfig targets ES2022.
function lastIndexWhere<T>(items: T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}

const lastUserMessage = (messages: ChatMessage[]) => messages[lastIndexWhere(messages, (m) => m.role === 'user')];

function subAgentListing(request: ChatRequest): SubAgentListing[] {
  const sources = [
    findTool(request, 'newTask')?.function.description ?? '',
    ...request.messages.filter((m) => m.role === 'system' || m.role === 'developer').map(messageText),
  ];
  return sources.flatMap(parseSubAgentListing);
}

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

function summarize(task: string): string {
  const line =
    task
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .replace(/\s+/g, ' ') ?? '';
  if (line === '') return '(no task given)';
  return line.length > SUMMARY_LIMIT ? `${line.slice(0, SUMMARY_LIMIT - 1).trimEnd()}…` : line;
}

const sentence = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

const indentContinuation = (s: string) => s.split('\n').join('\n  ');

/** Failure tokens on a `/delegate` line belong to the delegated task, so they reach the sub-agent instead. */
function failureFor(userText: string): ScriptedTurn['failure'] {
  const own = userText
    .split('\n')
    .filter((l) => !DELEGATE_LINE.test(l))
    .join('\n');
  if (own.includes('[demo:error]')) return 'error';
  if (own.includes('[demo:drop]')) return 'drop';
  if (own.includes('[demo:stall]')) return 'stall';
  if (own.includes('[demo:silent]')) return 'silent';
  return undefined;
}

function toolResultsTurn(request: ChatRequest): ScriptedTurn {
  const messages = request.messages;
  const batchStart = lastIndexWhere(messages, (m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0);
  const calls = batchStart >= 0 ? messages[batchStart]!.tool_calls! : [];
  const listing = subAgentListing(request);
  const results = messages.slice(batchStart + 1).filter((m) => m.role === 'tool');
  const lines = results.map((m) => {
    const call = calls.find((c) => c.id === m.tool_call_id);
    let label = call?.function.name ?? 'A tool';
    if (call?.function.name === 'newTask') {
      const subAgentId = parseJson(call.function.arguments)?.subAgentId;
      if (typeof subAgentId === 'string') label = listing.find((s) => s.id === subAgentId)?.name ?? subAgentId;
    }
    const { result, status } = describeToolOutput(messageText(m));
    return `- **${label}**${status ? ` (${status})` : ''}: ${indentContinuation(result)}`;
  });
  return { rule: 'tool-results', text: `Here is what came back:\n\n${lines.join('\n')}`, toolCalls: [] };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function describeToolOutput(raw: string): { result: string; status?: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { result: raw };
  }
  if (typeof value === 'string') return { result: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('result' in value || 'status' in value)) return { result: raw };
  const { result, status } = value as { result?: unknown; status?: unknown };
  return {
    result: typeof result === 'string' ? result : result === undefined ? '(no result)' : JSON.stringify(result),
    ...(typeof status === 'string' ? { status } : {}),
  };
}

function subAgentTurn(task: string): ScriptedTurn {
  const summary = summarize(task);
  const failed = FAIL_WORD.test(task);
  const result = failed
    ? [
        `Failed: ${summary}`,
        '',
        '- The task contains the word "fail", so the demo model reports `status: "error"` on purpose.',
        '- Nothing was done; the delegating agent can retry or carry on without this result.',
      ].join('\n')
    : [
        `Done: ${summary}`,
        '',
        `- Read the task (${task.split(/\s+/).filter(Boolean).length} words) and worked through it offline.`,
        "- This result comes from Baton's demo model, a scripted stand-in: no real research or writing happened.",
        '- Connect a real model to get a real answer.',
      ].join('\n');
  return {
    rule: 'sub-agent',
    text: `Working on it: ${sentence(summary)}`,
    toolCalls: [{ name: 'taskResult', arguments: { result, status: failed ? 'error' : 'success' } }],
  };
}

function delegateTurn(request: ChatRequest, lines: { name: string; task: string }[]): ScriptedTurn {
  if (!findTool(request, 'newTask')) {
    const names = [...new Set(lines.map((l) => l.name))];
    const text = names.map((n) => `No sub-agent named **${n}** is available to this agent.`).join('\n');
    return { rule: 'delegate-unavailable', text, toolCalls: [] };
  }
  const listing = subAgentListing(request);
  const toolCalls = lines.map(({ name, task }) => {
    // An unlisted name is passed through as the id so callers can exercise their "unknown sub-agent" path.
    const subAgentId = listing.find((s) => sameName(s.name, name) || s.id === name)?.id ?? name;
    return { name: 'newTask', arguments: { subAgentId, task } };
  });
  const who = [...new Set(lines.map((l) => l.name))].join(', ');
  const text = `Delegating ${lines.length} ${lines.length === 1 ? 'task' : 'tasks'} (${who}).`;
  return { rule: 'delegate', text, toolCalls };
}

function replyTurn(request: ChatRequest, userText: string): ScriptedTurn {
  const trimmed = userText.trim();
  const echoed = trimmed === '' ? '(an empty message)' : trimmed.length > ECHO_LIMIT ? `${trimmed.slice(0, ECHO_LIMIT)}…` : trimmed;
  const quote = echoed
    .split('\n')
    .map((l) => (l.trim() === '' ? '>' : `> ${l}`))
    .join('\n');
  const example = subAgentListing(request)[0]?.name ?? 'Researcher';
  const text = [
    "This is Baton's offline demo model: a scripted stand-in, not a language model. You wrote:",
    '',
    quote,
    '',
    '- I follow a small fixed script, so this reply does not depend on what your message means.',
    `- To try delegation, send a line like \`/delegate ${example}: find three facts about otters\` to an agent with sub-agents.`,
    '- For real answers, connect a model: set `OPENAI_API_KEY` or add a provider.',
  ].join('\n');
  return { rule: 'reply', text, toolCalls: [] };
}

/** Decides the demo model's next turn from the request (rules in README order). */
export function decideTurn(request: ChatRequest): ScriptedTurn {
  const userText = messageText(lastUserMessage(request.messages));
  const picked = pickRule(request, userText);
  // Text a careless provider might send: a NUL byte and an unpaired surrogate.
  const turn = userText.includes('[demo:garbage]') ? { ...picked, text: `${picked.text} Garbage: \u0000 and \ud800 end.` } : picked;
  const failure = failureFor(userText);
  return failure ? { ...turn, failure } : turn;
}

function pickRule(request: ChatRequest, userText: string): ScriptedTurn {
  if (request.messages.at(-1)?.role === 'tool') return toolResultsTurn(request);
  if (findTool(request, 'taskResult')) return subAgentTurn(userText);
  const lines = parseDelegateLines(userText);
  if (lines.length > 0) return delegateTurn(request, lines);
  return replyTurn(request, userText);
}
