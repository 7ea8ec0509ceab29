import { newTaskCalls } from '@baton/delegation';
import { errorCodes, type ChatUpdate } from '@baton/schemas';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent, message, provider, run } from '../db/schema';
import { AppError, invalidRequest, notFound } from '../errors';
import type { AgentRow } from './agents';
import type { ChatRow } from './chat-rows';
import { toUIMessage } from './messages';
import { hasRunningSubChat } from './sub-chat-state';

/**
 * Switching a chat's agent or model (`PATCH …/chats/:id { agentId, modelOverride }`): the
 * change applies from the next turn, the history stays. Checked inside the update's
 * transaction, on the locked chat row — the lock every run admission takes too, so a turn
 * starting at the same moment either sees the new agent or makes this a 409.
 */

const busy = (reason: string) => new AppError(409, errorCodes.conflict, reason);
const modelIssue = (reason: string) => invalidRequest(`modelOverride: ${reason}`, [{ path: ['modelOverride'], message: reason }]);

/**
 * A switch in the middle of an answer would hand its continuation (after a stop for approval,
 * or its sub-agents' results) to another agent than the one that delegated: refused until
 * the answer is over.
 */
async function assertNoAnswerUnderWay(tx: Database, chatId: string): Promise<void> {
  const [active] = await tx
    .select({ status: run.status })
    .from(run)
    .where(and(eq(run.chatId, chatId), inArray(run.status, ['running', 'awaiting_approval'])))
    .limit(1);
  if (active?.status === 'running') throw busy('this chat is answering: wait for the answer to finish (or stop it), then switch');
  if (active) throw busy('the last answer is waiting for a delegation to be approved or rejected: decide first, then switch');
  if (await hasRunningSubChat(tx, chatId)) throw busy('a sub-agent of the last answer is still working: wait for its result (or stop it), then switch');
  const [last] = await tx
    .select({ id: message.id, role: message.role, parts: message.parts, metadata: message.metadata })
    .from(message)
    .where(eq(message.chatId, chatId))
    .orderBy(desc(message.seq))
    .limit(1);
  // The browser starts its sub-agents after the answer's run ended: a call without an output is still theirs to deliver.
  if (last?.role === 'assistant' && newTaskCalls(toUIMessage(last)).some((c) => c.state !== 'output-available' && c.state !== 'output-error')) {
    throw busy('the last answer is waiting for its sub-agents: let them finish (or stop them), then switch');
  }
}

/**
 * An agent of the chat's workspace. The one switched to is locked against a delete until the
 * update has written its id (`FOR KEY SHARE`, as the foreign key would); the chat's current
 * agent is only read: a delete of it updates this locked chat row (ON DELETE SET NULL), and
 * locking the agent here as well could deadlock with that delete.
 */
async function agentOfWorkspace(tx: Database, workspaceId: string, id: string, { lock }: { lock: boolean }): Promise<AgentRow | undefined> {
  const query = tx
    .select()
    .from(agent)
    .where(and(eq(agent.workspaceId, workspaceId), eq(agent.id, id)));
  const [row] = lock ? await query.for('key share') : await query.limit(1);
  return row;
}

/**
 * A model override is a model of the agent's own provider, for an agent that allows it. A
 * provider that lists its models must list it; one that lists none (any model id is passed
 * on) takes it as given.
 */
async function assertModelChoice(tx: Database, chatAgent: AgentRow | undefined, modelId: string): Promise<void> {
  if (!chatAgent) throw modelIssue('this chat has no agent: choose one first');
  if (!chatAgent.allowModelOverride)
    throw modelIssue(`the agent "${chatAgent.name}" does not allow choosing its model per chat (its allowModelOverride setting)`);
  if (chatAgent.remote) throw modelIssue(`the agent "${chatAgent.name}" is a remote A2A agent: it has no model to choose`);
  const [own] = chatAgent.providerId
    ? await tx
        .select({ modelIds: provider.modelIds })
        .from(provider)
        .where(and(eq(provider.workspaceId, chatAgent.workspaceId), eq(provider.id, chatAgent.providerId)))
        .limit(1)
    : [];
  if (!own) throw modelIssue(`the agent "${chatAgent.name}" answers with the default model: give it a provider to choose among its models`);
  if (own.modelIds.length > 0 && !own.modelIds.includes(modelId)) {
    const listed = own.modelIds.slice(0, 20).join(', ') + (own.modelIds.length > 20 ? ', …' : '');
    throw modelIssue(`"${modelId}" is not a model of the agent's provider (${listed})`);
  }
}

/** The columns a PATCH of `agentId` / `modelOverride` changes (nothing when it gives neither). */
export async function agentAndModelChanges(tx: Database, current: ChatRow, patch: Pick<ChatUpdate, 'agentId' | 'modelOverride'>): Promise<Partial<ChatRow>> {
  if (patch.agentId === undefined && patch.modelOverride === undefined) return {};
  if (current.parentChatId) throw invalidRequest('A sub-agent’s chat belongs to its delegation: its agent and model cannot be changed.');
  await assertNoAnswerUnderWay(tx, current.id);
  const switching = patch.agentId !== undefined && patch.agentId !== current.agentId;
  const agentId = patch.agentId ?? current.agentId;
  const chatAgent = agentId ? await agentOfWorkspace(tx, current.workspaceId, agentId, { lock: switching }) : undefined;
  if (patch.agentId && !chatAgent) throw notFound('Agent', patch.agentId);
  if (typeof patch.modelOverride === 'string') await assertModelChoice(tx, chatAgent, patch.modelOverride);
  const changes: Partial<ChatRow> = {};
  if (switching) changes.agentId = patch.agentId;
  // The previous agent's override named a model of its provider, not of the new agent's.
  if (patch.modelOverride !== undefined) changes.modelOverride = patch.modelOverride;
  else if (switching) changes.modelOverride = null;
  return changes;
}
