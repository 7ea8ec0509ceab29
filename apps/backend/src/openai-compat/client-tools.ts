import { isToolCallPart, type ToolCallPart } from '@baton/delegation';
import { parseMcpToolId, type ChatCompletionRequest, type OpenAiToolCall, type BatonUIMessage } from '@baton/schemas';
import { isPendingClientCall, RESERVED_TOOL_NAMES, toolNameOf } from '../agent/api-tool-outputs';
import type { AgentRow, ClientToolSpec, TurnOverrides } from '../agent/runtime-types';
import { invalidBody } from './errors';

/** The names the agent's own tools take for the model: built-in ids, MCP tools by their own name (mcp-tools.ts), Baton's delegation tools. */
function agentToolNames(agent: AgentRow): Set<string> {
  const names = new Set(RESERVED_TOOL_NAMES);
  for (const id of agent.toolIds) names.add(parseMcpToolId(id)?.toolName ?? id);
  return names;
}

/**
 * The request's `tools` as the turn's client tools. A name the agent's tools (or Baton's
 * delegation tools) use is refused: the model could not tell the two apart, and Baton would
 * run its own where the caller expects a call.
 */
export function clientToolSpecs(req: ChatCompletionRequest, agent: AgentRow): ClientToolSpec[] {
  const taken = agentToolNames(agent);
  return (req.tools ?? []).map((t, i) => {
    const { name, description, parameters } = t.function;
    if (taken.has(name)) {
      const param = `tools[${i}].function.name`;
      throw invalidBody(`${param}: "${name}" is the name of one of the agent's own tools (or Baton's delegation tools): choose another name`, param);
    }
    return { name, ...(description ? { description } : {}), parameters: parameters ?? { type: 'object', properties: {} } };
  });
}

/** OpenAI's `tool_choice` as the AI SDK's. */
export function toolChoiceOf(choice: ChatCompletionRequest['tool_choice']): TurnOverrides['toolChoice'] {
  if (!choice) return undefined;
  return typeof choice === 'string' ? choice : { type: 'tool', toolName: choice.function.name };
}

/** A call as OpenAI returns it: its arguments as a JSON text. */
export function toOpenAiToolCall(part: ToolCallPart): OpenAiToolCall {
  return { id: part.toolCallId, type: 'function', function: { name: toolNameOf(part), arguments: JSON.stringify(part.input ?? {}) } };
}

/**
 * A stored answer's calls of the caller's tools from `fromPart` on, answered or not: its tool
 * parts that are none of the agent's own tools (`agent` as it is now) or Baton's.
 */
export function storedClientToolCalls(message: BatonUIMessage | undefined, fromPart: number, agent: AgentRow | undefined): OpenAiToolCall[] {
  const own = agent ? agentToolNames(agent) : new Set(RESERVED_TOOL_NAMES);
  return (message?.parts ?? [])
    .slice(fromPart)
    .filter((p): p is ToolCallPart => isToolCallPart(p) && p.state !== 'input-streaming' && !own.has(toolNameOf(p)))
    .map(toOpenAiToolCall);
}

/** The client tool calls this call's part of the answer (from `fromPart` on) ended with, waiting for the caller. */
export function clientToolCalls(message: BatonUIMessage | undefined, fromPart: number): OpenAiToolCall[] {
  return (message?.parts ?? []).slice(fromPart).filter(isPendingClientCall).map(toOpenAiToolCall);
}
