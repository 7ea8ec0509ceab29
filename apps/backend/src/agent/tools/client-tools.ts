import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import type { ClientToolSpec } from '../runtime-types';

/**
 * The API caller's tools for one turn (`/v1`'s `tools`): without `execute`, so the AI SDK's
 * loop stops at a call of one with the call pending (`input-available`); the caller runs it
 * and sends its output back, which continues the same message (agent/api-tool-outputs.ts).
 * The agent's own tools keep their names: the caller's may not take one (checked before the
 * turn is admitted), and MCP tools are named after these (`taken`), so neither replaces the other.
 */
export function clientTools(specs: readonly ClientToolSpec[] | undefined, taken: ReadonlySet<string>): Record<string, Tool> {
  const out: Record<string, Tool> = {};
  for (const spec of specs ?? []) {
    if (taken.has(spec.name)) continue;
    out[spec.name] = tool({
      ...(spec.description ? { description: spec.description } : {}),
      inputSchema: jsonSchema({ type: 'object', properties: {}, ...spec.parameters } as JSONSchema7),
    });
  }
  return out;
}
