import { errorCodes } from '@baton/schemas';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { deleteChat, requireChat } from '../../services/chat-repository';
import type { ChatOwner } from '../../services/chat-rows';
import { activeRunsInTree, findActiveRun, findRun, requestRunStop, type RunRow } from '../../services/runs';
import type { RunEventReader } from './run-channel';
import type { RunRegistry } from './run-registry';

interface ControlDeps {
  db: Database;
  runs: RunRegistry;
}

/** When a resume refused for want of Redis is worth trying again. */
export const RESUME_RETRY_AFTER_S = 5;

/** Resolves once the run is no longer `running` (or after `timeoutMs`). */
export async function waitForRunEnd(deps: ControlDeps, runId: string, timeoutMs: number): Promise<void> {
  const local = deps.runs.get(runId);
  if (local) {
    await Promise.race([local.finished, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    return;
  }
  // Running on another replica: its end shows in the database.
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const row = await findRun(deps.db, runId);
    if (!row || row.status !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stop, on whichever replica runs it: the request is recorded on the run (the owner's
 * heartbeat sees it even without Redis) and signalled (at once, here or through Redis).
 */
export function signalStop(deps: ControlDeps, run: RunRow): Promise<boolean> {
  deps.runs.signalStop(run.id);
  return requestRunStop(deps.db, run.id);
}

/** Stops runs without waiting (sub-chats that were cancelled, deleted or replaced). */
export async function stopRuns(deps: ControlDeps, runs: RunRow[]): Promise<void> {
  await Promise.all(runs.map((run) => signalStop(deps, run)));
}

/**
 * Deleting a chat stops its runs (and its sub-chats' runs) first, so no answer keeps
 * spending tokens for a chat that is gone; with their run rows gone too, a run still
 * finishing writes nothing (see storeRunSnapshots / endRun).
 */
export async function deleteChatStoppingRuns(deps: ControlDeps, owner: ChatOwner, chatId: string): Promise<void> {
  await requireChat(deps.db, owner, chatId);
  const runs = await activeRunsInTree(deps.db, chatId);
  await Promise.all(runs.map((run) => signalStop(deps, run)));
  await deleteChat(deps.db, owner, chatId);
}

/**
 * The events of a chat's running turn for a client that resumes it (a reload, a second
 * tab, another replica), after `afterSeq`. Undefined when no run is active (or its events
 * are nowhere to be found).
 */
export async function resumeChatStream(deps: ControlDeps, owner: ChatOwner, chatId: string, afterSeq: number): Promise<RunEventReader | undefined> {
  await requireChat(deps.db, owner, chatId);
  const run = await findActiveRun(deps.db, chatId);
  if (!run) return undefined;
  // Running on another replica: its events come through Redis, which must answer first.
  if (!deps.runs.hasEvents(run.id)) await deps.runs.bus?.checkReachable().catch(unavailable);
  return readRun(deps, run, afterSeq);
}

/** Redis is down: a 503 the client can act on (retry, or reload for the stored answer). */
function unavailable(err: Error): never {
  throw new AppError(503, errorCodes.unavailable, err.message, { retryAfterSeconds: RESUME_RETRY_AFTER_S });
}

export function readRun(deps: ControlDeps, run: RunRow, afterSeq: number): RunEventReader | undefined {
  return deps.runs.read(run.id, afterSeq, async () => (await findRun(deps.db, run.id))?.status === 'running');
}
