'use client';

import { offerableSubAgentIds } from '@baton/delegation';
import type { Agent } from '@baton/schemas';
import { RefreshCcw } from 'lucide-react';

/*
 * Cycles between agents (A → B → A) are allowed: Baton never offers an agent that is
 * already on the delegation chain, and the root's depth limit bounds every chain. The
 * sub-agents card says where a choice makes one and what those rules do with it.
 */

/**
 * The shortest path of agent ids from `start` back to `selfId` through the agents' sub-agent
 * lists (the edited agent's own list is the form's), or null when `start` never leads back.
 */
export function cycleThrough(start: string, selfId: string, agents: ReadonlyMap<string, Pick<Agent, 'id' | 'subAgentIds'>>): string[] | null {
  const previous = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const next of agents.get(id)?.subAgentIds ?? []) {
      if (next === selfId) {
        const path = [id];
        for (let at = previous.get(id); at; at = previous.get(at)) path.unshift(at);
        return [selfId, ...path, selfId];
      }
      if (previous.has(next) || !agents.has(next)) continue;
      previous.set(next, id);
      queue.push(next);
    }
  }
  return null;
}

/** What the rules make of a cycle when the edited agent is the root of the chat, in words. */
export function describeCycle(
  path: string[],
  agents: ReadonlyMap<string, Pick<Agent, 'id' | 'name' | 'subAgentIds'>>,
  maxDepth: number,
  selfName: string,
): string {
  const name = (id: string, i: number) => (i === 0 || i === path.length - 1 ? selfName : (agents.get(id)?.name ?? id));
  const [, sub] = path;
  const subName = name(sub!, 1);
  // Where the chain stands when the sub-agent works for this agent: depth 1, below this agent.
  const offered = offerableSubAgentIds(agents.get(sub!)?.subAgentIds ?? [], { chain: [path[0]!, sub!], depth: 1 }, { maxDepth });
  const others = offered.map((id) => agents.get(id)?.name ?? id);
  const depthNote =
    maxDepth <= 1
      ? `With a depth limit of 1, ${subName} gets no sub-agents at all when it works for ${selfName}.`
      : others.length > 0
        ? `Within the depth limit of ${maxDepth}, ${subName} may still delegate to ${others.join(', ')}.`
        : `${subName} has no other sub-agent to offer within the depth limit of ${maxDepth}.`;
  return `When ${selfName} delegates, an agent already on the chain is never offered again, so the loop back to ${selfName} cannot run. ${depthNote}`;
}

/** "Cycle: Lead → Critic → Lead", and what the rules do with it. */
export function CycleNote({
  path,
  agents,
  maxDepth,
  selfName,
}: {
  path: string[];
  agents: ReadonlyMap<string, Pick<Agent, 'id' | 'name' | 'subAgentIds'>>;
  maxDepth: number;
  selfName: string;
}) {
  const names = path.map((id, i) => (i === 0 || i === path.length - 1 ? selfName : (agents.get(id)?.name ?? id)));
  return (
    <div
      role="note"
      aria-label="Cycle"
      className="mt-1.5 flex items-start gap-1.5 rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200"
    >
      <RefreshCcw className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
      <span>
        <span className="font-medium">Cycle: {names.join(' → ')}.</span> {describeCycle(path, agents, maxDepth, selfName)}
      </span>
    </div>
  );
}
