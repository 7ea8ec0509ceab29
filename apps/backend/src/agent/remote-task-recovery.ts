import { readMessageMetadata } from '@baton/schemas';
import { and, eq } from 'drizzle-orm';
import { A2A_CANCEL_TIMEOUT_MS, connectRemoteAgent } from '../a2a-client/connect';
import { agent, chat, message } from '../db/schema';
import { logError } from '../error-text';
import { log } from '../ops/logger';
import { readRemoteHeaders } from '../services/remote-agents';
import type { RunRow } from '../services/runs';
import type { RuntimeDeps } from './runtime-types';

/**
 * Runs of remote A2A agents that recovery ended `interrupted` (their process died: kill -9, a
 * crash, a lost machine): the remote task is told to cancel, as Stop would have told it, so it
 * does not work on for nobody. Best effort: the task id is known once a snapshot of the answer
 * stored it (`remoteTaskId`, within a second of the first event); a remote agent that cannot
 * be reached is logged and left.
 */
export function cancelRemoteTasksOf(deps: Pick<RuntimeDeps, 'db' | 'secrets' | 'outbound'>, runs: readonly RunRow[]): Promise<void> {
  return Promise.all(
    runs
      .filter((run) => run.kind === 'sub_agent')
      .map((run) => cancelRemoteTask(deps, run).catch((err) => logError('cancelling the remote task of an interrupted run failed', err, { runId: run.id }))),
  ).then(() => undefined);
}

async function cancelRemoteTask(deps: Pick<RuntimeDeps, 'db' | 'secrets' | 'outbound'>, run: RunRow): Promise<void> {
  const [row] = await deps.db
    .select({ metadata: message.metadata, agentId: agent.id, remote: agent.remote, remoteHeaders: agent.remoteHeaders })
    .from(message)
    .innerJoin(chat, eq(chat.id, message.chatId))
    .innerJoin(agent, and(eq(agent.id, chat.agentId), eq(agent.workspaceId, chat.workspaceId)))
    .where(and(eq(message.id, run.messageId), eq(message.chatId, run.chatId)))
    .limit(1);
  const taskId = readMessageMetadata(row?.metadata).remoteTaskId;
  if (!row?.remote || !taskId) return;
  const signal = AbortSignal.timeout(A2A_CANCEL_TIMEOUT_MS);
  const { client } = await connectRemoteAgent(
    deps.outbound.providerFetch,
    row.remote.cardUrl,
    readRemoteHeaders(deps.secrets, { id: row.agentId, remoteHeaders: row.remoteHeaders }),
    signal,
  );
  await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal });
  log.info({ runId: run.id, chatId: run.chatId }, 'cancelled the remote A2A task of an interrupted run');
}
