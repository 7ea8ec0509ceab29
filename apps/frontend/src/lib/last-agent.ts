import type { Agent } from '@baton/schemas';

const key = (workspaceId: string) => `baton:last-agent:${workspaceId}`;

/** The agent a new chat starts with: the one used last, else the first that can delegate, else the first. */
export function defaultAgentId(workspaceId: string, agents: Agent[]): string | null {
  let remembered: string | null = null;
  try {
    remembered = window.localStorage.getItem(key(workspaceId));
  } catch {
    // Storage may be unavailable (private mode): fall through to the heuristics.
  }
  if (remembered && agents.some((a) => a.id === remembered)) return remembered;
  return (agents.find((a) => a.subAgentIds.length > 0) ?? agents[0])?.id ?? null;
}

export function rememberAgent(workspaceId: string, agentId: string) {
  try {
    window.localStorage.setItem(key(workspaceId), agentId);
  } catch {
    // Not remembering is fine.
  }
}
