import { GENERAL_PURPOSE_ID, type DelegationSettings, type ToolPolicy } from '@baton/schemas';

/** Where a chat sits in its delegation tree: the agents above it (root first) and its depth (root chat: 0). */
export interface TreePosition {
  /** Agent ids from the root chat's agent down to this chat's agent. */
  chain: string[];
  depth: number;
}

/**
 * The sub-agents an agent at `position` may be offered: none once the root's `maxDepth`
 * is reached, and never one already on its chain (A → B → A cannot happen at run time).
 */
export function offerableSubAgentIds(subAgentIds: readonly string[], position: TreePosition, root: Pick<DelegationSettings, 'maxDepth'>): string[] {
  if (position.depth >= root.maxDepth) return [];
  const above = new Set(position.chain);
  return subAgentIds.filter((id) => !above.has(id));
}

/**
 * Whether the general-purpose sub-agent is offered: the root allows it, the depth allows
 * one more level. (It is the delegating agent itself, so it does not count as a cycle.)
 */
export function offersGeneralPurpose(position: TreePosition, root: Pick<DelegationSettings, 'maxDepth' | 'generalPurpose'>): boolean {
  return root.generalPurpose && position.depth < root.maxDepth;
}

export function isGeneralPurpose(subAgentId: string): boolean {
  return subAgentId === GENERAL_PURPOSE_ID;
}

/**
 * A sub-agent's effective tools. `intersect`: its own tools that its parent may also use
 * (the parent's effective tools, recursively up to the root); `own`: its own tools.
 * Delegation tools (`newTask`, `taskResult`, `note`) are not in these lists: the rules add them.
 */
export function effectiveToolIds(policy: ToolPolicy, own: readonly string[], parentEffective: readonly string[]): string[] {
  if (policy === 'own') return [...own];
  const allowed = new Set(parentEffective);
  return own.filter((id) => allowed.has(id));
}
