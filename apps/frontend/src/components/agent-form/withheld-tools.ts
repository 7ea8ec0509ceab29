import { effectiveToolIds } from '@baton/delegation';
import type { Agent, WorkspaceTool } from '@baton/schemas';

/** A delegating agent that would not pass some of this agent's tools on to it. */
export interface WithheldBy {
  agentId: string;
  agentName: string;
  toolNames: string[];
}

/**
 * The agents that delegate to this one (as the root of a chat) and would withhold some of its
 * selected tools: under the `intersect` tool policy a sub-agent only gets the tools its
 * delegating agent may use too. Shown on the tools card, where a tool is switched on and
 * would otherwise seem to do nothing when the agent works as a sub-agent.
 */
export function withheldByDelegators(selfId: string | undefined, selected: string[], agents: Agent[], tools: WorkspaceTool[]): WithheldBy[] {
  if (!selfId || selected.length === 0) return [];
  const nameOf = new Map(tools.map((t) => [t.id, t.name]));
  return agents.flatMap((parent) => {
    if (parent.id === selfId || !parent.subAgentIds.includes(selfId)) return [];
    const passed = new Set(effectiveToolIds(parent.delegation.toolPolicy, selected, parent.toolIds));
    const withheld = selected.filter((id) => !passed.has(id));
    return withheld.length === 0 ? [] : [{ agentId: parent.id, agentName: parent.name, toolNames: withheld.map((id) => nameOf.get(id) ?? id) }];
  });
}
