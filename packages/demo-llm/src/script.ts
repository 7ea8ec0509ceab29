// The demo model's script: its public contract (README.md, "The script").
// Pure: the same request always yields the same turn, apart from tool-call ids,
// which the caller assigns.
import {
  DELEGATE_LINE,
  callsSinceTask,
  describeToolOutput,
  fileListing,
  findTool,
  lastIndexWhere,
  latestBatch,
  noteTexts,
  parseDelegateLines,
  parseJson,
  parseToolLines,
  parseWorkMarker,
  sameName,
  subAgentListing,
  systemText,
  lastUserIndex,
  taskText,
  type DelegateLine,
} from './conversation';
import { jsonAnswerText } from './json-answer';
import { describeReceivedFiles, receivedFiles, textFileOf } from './received-files';
import { type ChatMessage, type ChatRequest, contentText } from './wire';

/** A message's text parts that are not text files. */
function ownText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (!Array.isArray(content)) return contentText(message);
  return content
    .filter((p) => p.type === 'text' && typeof p.text === 'string' && !textFileOf(p.text))
    .map((p) => p.text)
    .join('\n');
}

export { parseDelegateLines, parseFileListing, parseSubAgentListing, parseToolLines, type SubAgentListing } from './conversation';

export type ScriptRule =
  | 'summary'
  | 'partial-result'
  | 'report-results'
  | 'note'
  | 'sub-agent'
  | 'await-steering'
  | 'steered'
  | 'tool-results'
  | 'tool'
  | 'tool-unavailable'
  | 'delegate'
  | 'delegate-unavailable'
  | 'reply';

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
  /** Wait this long before answering (`[demo:steer]` while no instruction has come). */
  pauseMs?: number;
}

const FAIL_WORD = /\bfail\b/i;
const SUMMARY_REQUEST = /summari[sz]e the conversation/i;
const PARTIAL_REQUEST = /report your result so far/i;
const ECHO_LIMIT = 500;
const SUMMARY_LIMIT = 120;
const DIGEST_WORDS = 40;
const NOTE_WORDS = 12;
const STEER_MARKER = /\[demo:steer\]/i;
/** How many steps a `[demo:steer]` sub-agent waits for an instruction before it reports without one. */
export const STEER_WAIT_STEPS = 60;
/** Each waiting step's pause: 60 of them give a person about half a minute to type. */
export const STEER_PAUSE_MS = 500;

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

function firstWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : words.join(' ');
}

const sentence = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

const indentContinuation = (s: string) => s.split('\n').join('\n  ');

const withoutDelegateLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => !DELEGATE_LINE.test(l))
    .join('\n');

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

/** One markdown line per tool result of the latest batch, labelled with the sub-agent's name for `newTask` calls. */
function quoteResults(request: ChatRequest): { text: string; statuses: (string | undefined)[] } {
  const { calls, results } = latestBatch(request);
  const listing = subAgentListing(request);
  const statuses: (string | undefined)[] = [];
  const lines = results.map((m) => {
    const call = calls.find((c) => c.id === m.tool_call_id);
    let label = call?.function.name ?? 'A tool';
    if (call?.function.name === 'newTask') {
      const subAgentId = parseJson(call.function.arguments)?.subAgentId;
      if (typeof subAgentId === 'string') label = listing.find((s) => s.id === subAgentId)?.name ?? subAgentId;
    }
    const { result, status, outcome } = describeToolOutput(contentText(m));
    statuses.push(status);
    // The outcome when there is one ("cancelled", "budget_exhausted"): what the delegation block shows too.
    const shown = outcome ?? status;
    return `- **${label}**${shown ? ` (${shown})` : ''}: ${indentContinuation(result)}`;
  });
  return { text: `Here is what came back:\n\n${lines.join('\n')}`, statuses };
}

function toolResultsTurn(request: ChatRequest): ScriptedTurn {
  return { rule: 'tool-results', text: quoteResults(request).text, toolCalls: [] };
}

/** A sub-agent never ends with plain text: it hands the quoted results back through `taskResult`. */
function reportResultsTurn(request: ChatRequest): ScriptedTurn {
  const { text, statuses } = quoteResults(request);
  const allFailed = statuses.length > 0 && statuses.every((s) => s === 'error');
  return {
    rule: 'report-results',
    text: `${statuses.length} ${statuses.length === 1 ? 'result is' : 'results are'} in; reporting back.`,
    toolCalls: [{ name: 'taskResult', arguments: { result: text, status: allFailed ? 'error' : 'success' } }],
  };
}

function noteTurn(task: string, step: number, of: number): ScriptedTurn {
  const words = firstWords(task.replace(/\[demo:[^\]]*\]/gi, ' '), NOTE_WORDS) || '(no task given)';
  return {
    rule: 'note',
    text: `Working on step ${step} of ${of}.`,
    toolCalls: [{ name: 'note', arguments: { text: `Note ${step} of ${of}: ${words}` } }],
  };
}

/** The last user message (the task) with what it carries: the files a sub-agent was given are reported with its result. */
function finishTurn(task: string, given: string[] = []): ScriptedTurn {
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
  const reported = given.length > 0 ? `${result}\n\n${given.join('\n').trimEnd()}` : result;
  return {
    rule: 'sub-agent',
    text: `Working on it: ${sentence(summary)}`,
    toolCalls: [{ name: 'taskResult', arguments: { result: reported, status: failed ? 'error' : 'success' } }],
  };
}

/**
 * `[demo:steer]`: the sub-agent waits (a `note` per step) for a person's message sent to it while
 * it runs — a user message after the task — and reports the latest one it saw.
 */
function steerTurn(request: ChatRequest, taskIndex: number): ScriptedTurn {
  const task = contentText(request.messages[taskIndex]);
  const summary = summarize(task.replace(/\[demo:[^\]]*\]/gi, ' ').trim());
  const after = request.messages.slice(taskIndex + 1);
  const sent = after.filter((m) => m.role === 'user');
  // Files sent with an instruction are listed as a message's are, not quoted as its text.
  const instructions = sent.map((m) => ownText(m).trim());
  const latest = instructions.at(-1);
  if (latest !== undefined) {
    const files = describeReceivedFiles(receivedFiles(sent.at(-1)));
    const result = [
      `Done: ${summary}`,
      '',
      `- Latest instruction: ${latest || '(files only)'}`,
      `- Instructions received: ${instructions.length}`,
      ...(files.length > 0 ? ['', ...files] : []),
    ]
      .join('\n')
      .trimEnd();
    return {
      rule: 'steered',
      text: `Following your instruction: ${sentence(summarize(latest || 'the files you sent'))}`,
      toolCalls: [{ name: 'taskResult', arguments: { result, status: 'success' } }],
    };
  }
  const waited = after.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).filter((c) => c.function.name === 'note').length;
  if (findTool(request, 'note') && waited < STEER_WAIT_STEPS) {
    const label = `Waiting for instructions (${waited + 1} of ${STEER_WAIT_STEPS})`;
    return { rule: 'await-steering', text: `${label}.`, toolCalls: [{ name: 'note', arguments: { text: label } }], pauseMs: STEER_PAUSE_MS };
  }
  const result = [`Done: ${summary}`, '', '- No instruction arrived while I waited.'].join('\n');
  return { rule: 'steered', text: 'No instruction came; reporting back.', toolCalls: [{ name: 'taskResult', arguments: { result, status: 'success' } }] };
}

/** Offered `taskResult`: notes first (`[demo:work N]`), then `/delegate` lines, then the results or the finished task. */
function subAgentTurn(request: ChatRequest, task: string): ScriptedTurn {
  const { calls } = latestBatch(request);
  if (request.messages.at(-1)?.role === 'tool' && !calls.every((c) => c.function.name === 'note')) return reportResultsTurn(request);
  // Like the failure tokens, a marker on a `/delegate` line belongs to the delegated task.
  const steerTask = lastIndexWhere(request.messages, (m) => m.role === 'user' && STEER_MARKER.test(withoutDelegateLines(contentText(m))));
  if (steerTask >= 0) return steerTurn(request, steerTask);
  const work = findTool(request, 'note') ? parseWorkMarker(task) : undefined;
  const written = callsSinceTask(request, 'note').length;
  if (work !== undefined && written < work) return noteTurn(task, written + 1, work);
  const tools = toolTurn(request, task);
  if (tools?.rule === 'tool') return tools;
  const lines = parseDelegateLines(task);
  if (lines.length > 0 && findTool(request, 'newTask') && callsSinceTask(request, 'newTask').length === 0) return delegateTurn(request, lines);
  return finishTurn(task, describeReceivedFiles(receivedFiles(request.messages[lastUserIndex(request.messages)])));
}

/**
 * `/tool <name> <json>` lines: the offered tools among them are called once each (in one
 * response) unless a call to them followed the task already; their results are then quoted
 * (rule 4) or, by a sub-agent, reported (rule 3.1). Undefined when the task has no such line.
 */
function toolTurn(request: ChatRequest, task: string): ScriptedTurn | undefined {
  const lines = parseToolLines(task);
  if (lines.length === 0) return undefined;
  const offered = lines.filter((l) => findTool(request, l.name));
  if (offered.length === 0) {
    const names = [...new Set(lines.map((l) => l.name))];
    return { rule: 'tool-unavailable', text: names.map((n) => `No tool named **${n}** is available to this agent.`).join('\n'), toolCalls: [] };
  }
  if (offered.some((l) => callsSinceTask(request, l.name).length > 0)) return undefined;
  const names = [...new Set(offered.map((l) => l.name))];
  return {
    rule: 'tool',
    text: `Calling ${names.length === 1 ? names[0] : `${offered.length} tools (${names.join(', ')})`}.`,
    toolCalls: offered.map((l) => ({ name: l.name, arguments: l.arguments })),
  };
}

function delegateTurn(request: ChatRequest, lines: DelegateLine[]): ScriptedTurn {
  if (!findTool(request, 'newTask')) {
    const names = [...new Set(lines.map((l) => l.name))];
    const text = names.map((n) => `No sub-agent named **${n}** is available to this agent.`).join('\n');
    return { rule: 'delegate-unavailable', text, toolCalls: [] };
  }
  const listing = subAgentListing(request);
  const latestFiles = fileListing(request)
    .filter((f) => f.latest)
    .map((f) => f.id);
  let passed = 0;
  const toolCalls = lines.map(({ name, task, files }) => {
    // An unlisted name is passed through as the id so callers can exercise their "unknown sub-agent" path.
    const subAgentId = listing.find((s) => sameName(s.name, name) || s.id === name)?.id ?? name;
    // Written ids go as they are (made-up ones too), so callers can exercise their "not a file of this conversation" path.
    const attachments = files === 'latest' ? latestFiles : files;
    passed += attachments?.length ?? 0;
    return { name: 'newTask', arguments: attachments?.length ? { subAgentId, task, attachments } : { subAgentId, task } };
  });
  const who = [...new Set(lines.map((l) => l.name))].join(', ');
  const withFiles = passed > 0 ? `, passing on ${passed === 1 ? '1 file' : `${passed} files`}` : '';
  const text = `Delegating ${lines.length} ${lines.length === 1 ? 'task' : 'tasks'} (${who})${withFiles}.`;
  return { rule: 'delegate', text, toolCalls };
}

/** The backend asks for a summary (context mode "summary") with no tools and this system prompt. */
function summaryTurn(request: ChatRequest): ScriptedTurn {
  const said = request.messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map(contentText)
    .join(' ');
  return { rule: 'summary', text: `Summary of the conversation so far: ${firstWords(said, DIGEST_WORDS) || '(nothing was said yet)'}`, toolCalls: [] };
}

/** The backend asks for a partial result when a budget runs out: the notes are all the demo model has. */
function partialResultTurn(request: ChatRequest): ScriptedTurn {
  const notes = noteTexts(request);
  return { rule: 'partial-result', text: `Partial result: ${notes.length > 0 ? notes.join('; ') : 'no notes were written'}`, toolCalls: [] };
}

function replyTurn(request: ChatRequest, userText: string): ScriptedTurn {
  const last = request.messages[lastUserIndex(request.messages)];
  const files = receivedFiles(last);
  // The quote is what the person wrote: text files are listed with the files instead.
  const written = files.length === 0 ? userText : ownText(last);
  const trimmed = written.trim();
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
    ...describeReceivedFiles(files),
    '- I follow a small fixed script, so this reply does not depend on what your message means.',
    `- To try delegation, send a line like \`/delegate ${example}: find three facts about otters\` to an agent with sub-agents.`,
    '- For real answers, connect a model: set `OPENAI_API_KEY` or add a provider.',
  ].join('\n');
  return { rule: 'reply', text, toolCalls: [] };
}

/** Decides the demo model's next turn from the request (rules in README order). */
export function decideTurn(request: ChatRequest): ScriptedTurn {
  const userText = taskText(request);
  const scripted = pickRule(request, userText);
  // An answer without tool calls is JSON when the request asks for JSON.
  const json = scripted.toolCalls.length === 0 ? jsonAnswerText(request, scripted.text, userText) : undefined;
  const picked = json === undefined ? scripted : { ...scripted, text: json };
  // Text a careless provider might send: a NUL byte and an unpaired surrogate.
  const turn = userText.includes('[demo:garbage]') ? { ...picked, text: `${picked.text} Garbage: \u0000 and \ud800 end.` } : picked;
  const failure = failureFor(userText);
  return failure ? { ...turn, failure } : turn;
}

function pickRule(request: ChatRequest, userText: string): ScriptedTurn {
  const noTools = (request.tools?.length ?? 0) === 0;
  if (noTools && SUMMARY_REQUEST.test(systemText(request))) return summaryTurn(request);
  if (noTools && PARTIAL_REQUEST.test(userText)) return partialResultTurn(request);
  // A sub-agent's task is what it was told: the text files given with it are not part of it.
  if (findTool(request, 'taskResult')) return subAgentTurn(request, ownText(request.messages[lastUserIndex(request.messages)]));
  if (request.messages.at(-1)?.role === 'tool') return toolResultsTurn(request);
  const tools = toolTurn(request, userText);
  if (tools) return tools;
  const lines = parseDelegateLines(userText);
  if (lines.length > 0) return delegateTurn(request, lines);
  return replyTurn(request, userText);
}
