import type { Tool } from 'ai';
import { type BuiltInToolId, isBuiltInToolId } from '../../services/built-in-tools';
import { calculatorTool } from './calculator';
import { currentTimeTool } from './current-time';

/** The code of each built-in tool (their names and descriptions: services/built-in-tools.ts). */
const builtInTools: Record<BuiltInToolId, Tool> = {
  calculator: calculatorTool,
  currentTime: currentTimeTool,
};

/** The agent's selected tools; ids that no longer exist are skipped rather than failing a chat. */
export function toolsFor(toolIds: string[]): Record<string, Tool> {
  return Object.fromEntries(toolIds.filter(isBuiltInToolId).map((id) => [id, builtInTools[id]]));
}
