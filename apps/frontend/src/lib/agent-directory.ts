import type { Agent } from '@baton/schemas';
import { api } from './api-client';

/*
 * A short-lived cache of a workspace's agents, for naming sub-agents in delegation blocks
 * and checking a parent's sub-agent list. A transcript with twenty delegation blocks
 * should cost one request, not twenty; agents rarely change mid-conversation, and a
 * lookup that misses refreshes the list once.
 */

const FRESH_MS = 30_000;
const cache = new Map<string, { at: number; agents: Promise<Map<string, Agent>> }>();
/** The last list each workspace loaded, read synchronously: a block can show a name on its first render. */
const lastLoaded = new Map<string, Map<string, Agent>>();

function load(workspaceId: string): Promise<Map<string, Agent>> {
  const agents = api.agents.listAll(workspaceId).then((list) => {
    const byId = new Map(list.map((a) => [a.id, a]));
    lastLoaded.set(workspaceId, byId);
    return byId;
  });
  const entry = { at: Date.now(), agents };
  cache.set(workspaceId, entry);
  // A failed load is not cached: the next caller tries again.
  agents.catch(() => {
    if (cache.get(workspaceId) === entry) cache.delete(workspaceId);
  });
  return agents;
}

export async function workspaceAgents(workspaceId: string, { refresh = false } = {}): Promise<Map<string, Agent>> {
  const entry = cache.get(workspaceId);
  if (!refresh && entry && Date.now() - entry.at < FRESH_MS) return entry.agents;
  return load(workspaceId);
}

/** The agent with this id, refreshing the cached list once when it is not in it. */
export async function findWorkspaceAgent(workspaceId: string, agentId: string): Promise<Agent | undefined> {
  const agents = await workspaceAgents(workspaceId);
  if (agents.has(agentId)) return agents.get(agentId);
  return (await workspaceAgents(workspaceId, { refresh: true })).get(agentId);
}

/** The agent's name if the workspace's list is already here (no request); undefined otherwise. */
export function knownAgentName(workspaceId: string, agentId: string): string | undefined {
  return lastLoaded.get(workspaceId)?.get(agentId)?.name;
}
