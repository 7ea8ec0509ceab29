import {
  addUsage,
  effectiveToolIds,
  GENERAL_PURPOSE_LISTING,
  isGeneralPurpose,
  NO_USAGE,
  notASubAgentResult,
  offerableSubAgentIds,
  offersGeneralPurpose,
  toNewTaskOutput,
  type TreePosition,
} from '@baton/delegation';
import { DEFAULT_DELEGATION_SETTINGS, type DelegationOutcome, type DelegationSettings, type NewTaskOutput, type TokenUsage } from '@baton/schemas';
import type { Database } from '../db/client';
import { findAgent, findAgentsByIds, type AgentRow } from '../services/agents';
import { subtreeUsage } from '../services/chat-usage';
import { findChatById } from '../services/chats-by-id';
import type { ChatRow } from '../services/chat-rows';
import type { SubAgentListing } from './system-prompt';

/**
 * Where a chat sits in its delegation tree and what governs it: the root chat's agent's
 * settings apply at every depth (docs/architecture.md, "Delegation").
 */
export interface DelegationTree {
  rootChatId: string;
  root: DelegationSettings;
  position: TreePosition;
  /** The tools this chat's agent may use here: the root's own tools, or what the sub-chat was born with. */
  toolIds: string[];
}

const settingsOf = (agent: AgentRow | undefined): DelegationSettings => ({ ...DEFAULT_DELEGATION_SETTINGS, ...agent?.delegation });

/** The tree position of a chat, from its `parentChatId` chain (at most maxDepth rows up). */
export async function treeOf(db: Database, at: ChatRow, agent: AgentRow): Promise<DelegationTree> {
  if (!at.parentChatId) return { rootChatId: at.id, root: settingsOf(agent), position: { chain: [agent.id], depth: 0 }, toolIds: agent.toolIds };
  const ancestors: ChatRow[] = [];
  for (let id: string | null = at.parentChatId; id; ) {
    const row = await findChatById(db, id);
    if (!row) break;
    ancestors.unshift(row);
    id = row.parentChatId;
  }
  const rootChat = ancestors[0];
  const rootAgent = rootChat?.agentId ? await findAgent(db, at.workspaceId, rootChat.agentId) : undefined;
  return {
    rootChatId: rootChat?.id ?? at.id,
    root: settingsOf(rootAgent),
    position: { chain: [...ancestors.flatMap((a) => (a.agentId ? [a.agentId] : [])), agent.id], depth: at.depth },
    toolIds: at.effectiveToolIds ?? agent.toolIds,
  };
}

/** The settings that govern a chat's tree (its root chat's agent's), by chat id. */
export async function rootSettingsOf(db: Database, workspaceId: string, chatId: string): Promise<DelegationSettings> {
  let row: ChatRow | undefined;
  for (let id: string | null = chatId; id; id = row.parentChatId) {
    row = await findChatById(db, id);
    if (!row) return settingsOf(undefined);
  }
  return settingsOf(row?.agentId ? await findAgent(db, workspaceId, row.agentId) : undefined);
}

/** The sub-agents `newTask` lists for an agent at this place of the tree, in its configured order; general-purpose last. */
export async function offeredSubAgents(db: Database, workspaceId: string, agent: AgentRow, tree: DelegationTree): Promise<SubAgentListing[]> {
  const ids = offerableSubAgentIds(agent.subAgentIds, tree.position, tree.root);
  const byId = new Map((await findAgentsByIds(db, workspaceId, ids)).map((a) => [a.id, a]));
  const listed: SubAgentListing[] = ids.flatMap((id) => {
    const a = byId.get(id);
    return a ? [{ id: a.id, name: a.name, description: a.description }] : [];
  });
  if (offersGeneralPurpose(tree.position, tree.root)) listed.push(GENERAL_PURPOSE_LISTING);
  return listed;
}

/** What a delegation gives the sub-agent, decided the same way in both flows. */
export interface SubAgentPlan {
  /** The agent the sub-chat runs: the listed sub-agent, or the delegating agent itself for general-purpose. */
  agent: AgentRow;
  depth: number;
  effectiveToolIds: string[];
}

/**
 * The sub-agent a `newTask` call reaches, or why it cannot run (the text its output
 * carries): it must be one the delegating agent is offered at this place of the tree.
 */
export async function planSubAgent(
  db: Database,
  workspaceId: string,
  delegator: AgentRow,
  tree: DelegationTree,
  subAgentId: string,
): Promise<{ plan: SubAgentPlan } | { refused: string }> {
  const offered = await offeredSubAgents(db, workspaceId, delegator, tree);
  if (!offered.some((a) => a.id === subAgentId)) return { refused: notASubAgentResult(subAgentId, delegator.name, offered) };
  const agent = isGeneralPurpose(subAgentId) ? delegator : await findAgent(db, workspaceId, subAgentId);
  if (!agent) return { refused: notASubAgentResult(subAgentId, delegator.name, offered) };
  return { plan: { agent, depth: tree.position.depth + 1, effectiveToolIds: effectiveToolIds(tree.root.toolPolicy, agent.toolIds, tree.toolIds) } };
}

// A sub-chat has ended once it has an outcome (sub-chat-state.ts); until then there is no output.
const outcomeOfRow = (row: ChatRow): DelegationOutcome | undefined => row.outcome ?? undefined;

/** The server's `newTask` output for an ended sub-chat: its outcome and result (capped by the root), its subtree's usage. */
export async function outputForSubChat(db: Database, row: ChatRow, root: Pick<DelegationSettings, 'maxResultChars'>): Promise<NewTaskOutput | undefined> {
  const outcome = outcomeOfRow(row);
  if (!outcome) return undefined;
  const usage = await subtreeUsage(db, [row.id]);
  // A remote agent reports no tokens: unknown, not 0 (its sub-chat is a leaf).
  const remote = row.agentId ? (await findAgent(db, row.workspaceId, row.agentId))?.remote : null;
  return toNewTaskOutput({
    outcome,
    result: row.delegateResult ?? '',
    subChatId: row.id,
    usage: remote ? { ...usage, unknown: true } : usage,
    maxResultChars: root.maxResultChars,
  });
}

export const sumUsage = (usages: TokenUsage[]): TokenUsage => usages.reduce(addUsage, NO_USAGE);
