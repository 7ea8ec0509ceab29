import type { ToolInfo } from '@baton/schemas';
import type { Tool } from 'ai';
import { calculatorTool } from './calculator';
import { currentTimeTool } from './current-time';

/** The built-in server tools an agent can be given through `toolIds`. */
const builtInTools = {
  calculator: { name: 'Calculator', description: 'Evaluates math expressions (mathjs).', tool: calculatorTool },
  currentTime: { name: 'Current time', description: 'Tells the current date and time in any time zone.', tool: currentTimeTool },
} satisfies Record<string, { name: string; description: string; tool: Tool }>;

export type BuiltInToolId = keyof typeof builtInTools;

export function listBuiltInTools(): ToolInfo[] {
  return Object.entries(builtInTools).map(([id, t]) => ({ id, name: t.name, description: t.description }));
}

export function isBuiltInToolId(id: string): id is BuiltInToolId {
  return Object.hasOwn(builtInTools, id);
}

/** The agent's selected tools; ids that no longer exist are skipped rather than failing a chat. */
export function toolsFor(toolIds: string[]): Record<string, Tool> {
  return Object.fromEntries(toolIds.filter(isBuiltInToolId).map((id) => [id, builtInTools[id].tool]));
}
