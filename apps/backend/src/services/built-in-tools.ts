import type { ToolInfo } from '@baton/schemas';

/**
 * The built-in server tools an agent can be given through `toolIds`: what they are called and
 * what they do. Their code is the runtime's (`agent/tools/registry.ts`); this catalog is what
 * storing and listing an agent's tools needs, without reaching up into the runtime.
 */
const builtInToolCatalog = {
  calculator: { name: 'Calculator', description: 'Evaluates math expressions (mathjs).' },
  currentTime: { name: 'Current time', description: 'Tells the current date and time in any time zone.' },
} satisfies Record<string, { name: string; description: string }>;

export type BuiltInToolId = keyof typeof builtInToolCatalog;

export function listBuiltInTools(): ToolInfo[] {
  return Object.entries(builtInToolCatalog).map(([id, t]) => ({ id, name: t.name, description: t.description }));
}

export function isBuiltInToolId(id: string): id is BuiltInToolId {
  return Object.hasOwn(builtInToolCatalog, id);
}
