import { type BatonFile, mcpPrefixedToolName, mcpToolOutputSchema, type WorkspaceTool } from '@baton/schemas';

/*
 * How a tool call's output and origin read in the transcript. Pure, so the rules are
 * unit-tested; the block itself only renders what these return.
 */

function asJson(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

interface McpContent {
  type: string;
  text?: string;
}

/** An MCP `tools/call` result: `{ content: [{ type: 'text', text }], isError? }`. */
function isMcpResult(value: unknown): value is { content: McpContent[]; isError?: boolean; structuredContent?: unknown } {
  if (!value || typeof value !== 'object') return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every((c) => c && typeof c === 'object' && typeof (c as McpContent).type === 'string');
}

/**
 * The output as a person reads it, and whether the tool reported a failure. An MCP
 * result shows its text content (other content kinds are named, not dumped); a
 * result with `isError` is a failure even though the call itself completed.
 */
export function toolOutputView(output: unknown): { text: string; isError: boolean; files?: BatonFile[] } {
  // An MCP result whose images and resources Baton stored as files of the chat.
  const withFiles = mcpToolOutputSchema.safeParse(output);
  if (withFiles.success) return { text: withFiles.data.text, isError: false, files: withFiles.data.files };
  if (!isMcpResult(output)) return { text: asJson(output), isError: false };
  const pieces = output.content.map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : `[${c.type} content]`));
  const text = pieces.length > 0 ? pieces.join('\n\n') : output.structuredContent !== undefined ? asJson(output.structuredContent) : '';
  return { text, isError: output.isError === true };
}

export const toolInputText = asJson;

/**
 * Which MCP server a called tool comes from, when the workspace's catalog tells: the
 * model calls an MCP tool by its own name, or by `<server>_<tool>` when two servers (or
 * a built-in) share that name. Built-in tools, unknown names and a name two working
 * servers list (the call does not say which) have no origin.
 */
export function mcpToolOrigin(calledName: string, catalog: WorkspaceTool[]): { toolName: string; serverName: string } | undefined {
  const mcp = catalog.filter((t) => t.source === 'mcp' && t.serverName);
  if (catalog.some((t) => t.source === 'builtIn' && t.name === calledName)) return undefined;
  const bare = mcp.filter((t) => t.name === calledName);
  // Two servers listing one name: a turn only offers tools of servers that work, so prefer those.
  const usable = bare.length > 1 ? bare.filter((t) => t.available) : bare;
  if (usable.length === 1) return { toolName: usable[0]!.name, serverName: usable[0]!.serverName! };
  const prefixed = mcp.find((t) => calledName === mcpPrefixedToolName(t.serverName!, t.name));
  return prefixed ? { toolName: prefixed.name, serverName: prefixed.serverName! } : undefined;
}

/** Where a tool call stands, in words a user understands. */
export type ToolCallState = { label: string; tone: 'running' | 'waiting' | 'done' | 'failed' };

/**
 * A call without output in an answer that is no longer being written waits for someone
 * else: an API client's own tool (`/v1` client tools), whose output comes with its next call.
 */
export function toolCallState(state: string, reportedError: boolean, streaming: boolean): ToolCallState {
  switch (state) {
    case 'output-available':
      return reportedError ? { label: 'failed', tone: 'failed' } : { label: 'done', tone: 'done' };
    case 'output-error':
    case 'output-denied':
      return { label: 'failed', tone: 'failed' };
    case 'input-available':
      return streaming ? { label: 'running', tone: 'running' } : { label: 'waiting for the API client', tone: 'waiting' };
    default:
      return { label: 'running', tone: 'running' };
  }
}
