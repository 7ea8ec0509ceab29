// What every way of sending a message checks on the locked chat before its turn is admitted
// (the browser's, REST's and /v1's): nothing left undecided or running below the last answer,
// and the agent the turn runs as.
import type { BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { AppError, invalidRequest } from '../errors';
import { findAgent } from '../services/agents';
import { setChatAgent } from '../services/chats-by-id';
import { awaitingCalls } from '../services/pending-approvals';
import { hasRunningSubChat } from '../services/sub-chat-state';
import type { AgentRow, ChatRow } from './runtime-types';

/**
 * A new message would leave the last answer's delegations behind: their results could no
 * longer be given to the answer (a retried attempt's, or a browser's sub-agents').
 */
export async function assertNoRunningDelegations(tx: Database, chatId: string) {
  if (await hasRunningSubChat(tx, chatId)) {
    throw new AppError(409, 'conflict', 'a sub-agent of the last answer is still working: wait for its result (or stop it) before sending a new message');
  }
}

/** A new message would leave the paused answer's delegations undecided for good. */
export function assertNoPendingApprovals(history: BatonUIMessage[]) {
  const waiting = awaitingCalls(history.at(-1));
  if (waiting.length > 0) {
    throw new AppError(
      409,
      'conflict',
      `the last answer is waiting for approval of ${waiting.length === 1 ? 'a delegation' : `${waiting.length} delegations`}: approve or reject first (POST …/approvals/:toolCallId)`,
    );
  }
}

export function existingAgent(agent: AgentRow | undefined, id: string): AgentRow {
  if (!agent) throw invalidRequest(`agentId: agent "${id}" does not exist in this workspace`);
  return agent;
}

export async function requireAgent(db: Database, workspaceId: string, id: string): Promise<AgentRow> {
  return existingAgent(await findAgent(db, workspaceId, id), id);
}

/** The agent a turn in an existing chat runs as; a top-level chat may switch agents. */
export async function agentForChat(db: Database, workspaceId: string, chat: ChatRow, requested?: string): Promise<AgentRow> {
  if (requested && requested !== chat.agentId) {
    if (chat.parentChatId) throw invalidRequest('agentId: a sub-chat always runs its sub-agent');
    const agent = await requireAgent(db, workspaceId, requested);
    await setChatAgent(db, chat.id, agent.id);
    return agent;
  }
  const agent = chat.agentId ? await findAgent(db, workspaceId, chat.agentId) : undefined;
  if (!agent) throw invalidRequest('agentId: this chat has no agent (it may have been deleted); pass agentId');
  return agent;
}
