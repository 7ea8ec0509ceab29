import type { Database } from '../../db/client';
import { deleteChat, requireChat, type ChatOwner } from '../../services/chats';
import { activeRunsInTree, findActiveRun, findRun, requestRunStop, type RunRow } from '../../services/runs';
import type { RunEventReader } from './run-channel';
import type { RunRegistry } from './run-registry';

interface ControlDeps {
  db: Database;
  runs: RunRegistry;
}

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
 * finishing writes nothing (see storeRunSnapshots / claimRunEnd).
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
  return readRun(deps, run, afterSeq);
}

export function readRun(deps: ControlDeps, run: RunRow, afterSeq: number): RunEventReader | undefined {
  return deps.runs.read(run.id, afterSeq, async () => (await findRun(deps.db, run.id))?.status === 'running');
}
