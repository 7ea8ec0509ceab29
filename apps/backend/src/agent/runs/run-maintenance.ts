import { INTERRUPTED_MESSAGE } from '@baton/schemas';
import type { Database } from '../../db/client';
import { logError } from '../../error-text';
import { findStaleRuns, heartbeatRuns, type RunRow } from '../../services/runs';
import { endRun } from './run-lifecycle';
import { settleInterruptedRun } from './run-end';
import type { RunRegistry } from './run-registry';
import { DEFAULT_SNAPSHOT_MS } from './snapshot-writer';
import { log } from '../../ops/logger';

export interface RunTimings {
  /** How often a process proves its runs are alive (and learns of Stop requests without Redis). */
  heartbeatMs: number;
  /** A run whose heartbeat is older than this belonged to a process that died. */
  staleAfterMs: number;
  /** How often each process looks for such runs. */
  sweepMs: number;
  /** How often a streaming answer stores what it has so far: what a crash may lose at most. */
  snapshotMs: number;
}

export const DEFAULT_RUN_TIMINGS: RunTimings = { heartbeatMs: 5_000, staleAfterMs: 30_000, sweepMs: 10_000, snapshotMs: DEFAULT_SNAPSHOT_MS };

/**
 * Marks runs interrupted whose process stopped heartbeating (`null`: every running run,
 * for a database only this process can open) and repairs what they left behind. Several
 * replicas may sweep at once: the conditional update gives each run to exactly one.
 */
export async function recoverInterruptedRuns(db: Database, staleAfterMs: number | null): Promise<RunRow[]> {
  // Deepest first: a parent's unfinished newTask calls then receive their sub-chats' outcomes, at every level.
  const stale = await findStaleRuns(db, staleAfterMs);
  const claimed: RunRow[] = [];
  for (const run of stale) {
    try {
      // The status flips together with the repair: nobody sees an ended run with a half-repaired answer.
      const won = await db.transaction(async (tx) => {
        if (!(await endRun(tx, run.id, { status: 'interrupted', error: INTERRUPTED_MESSAGE }))) return false;
        await settleInterruptedRun(tx, run);
        return true;
      });
      if (won) claimed.push(run);
    } catch (err) {
      logError(`repairing interrupted run ${run.id} failed`, err);
    }
  }
  if (claimed.length > 0) log.warn({ runIds: claimed.map((r) => r.id) }, `marked ${claimed.length} run(s) of stopped processes as interrupted`);
  return claimed;
}

/** Heartbeats for this process's runs, and the periodic sweep for other processes' dead runs. */
export class RunMaintenance {
  private timers: NodeJS.Timeout[] = [];
  private sweeping = false;

  constructor(
    private readonly db: Database,
    private readonly runs: RunRegistry,
    private readonly timings: RunTimings,
  ) {}

  start(): void {
    this.timers.push(setInterval(() => void this.heartbeat(), this.timings.heartbeatMs));
    this.timers.push(setInterval(() => void this.sweep(), this.timings.sweepMs));
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  async heartbeat(): Promise<void> {
    const ids = this.runs.ids();
    if (ids.length === 0) return;
    try {
      const alive = new Map((await heartbeatRuns(this.db, ids)).map((r) => [r.id, r]));
      for (const id of ids) {
        const row = alive.get(id);
        // Recovered by another replica (this process stalled past the limit), or just ended
        // here — aborting a run that already stored its end changes nothing.
        if (!row) this.runs.abort(id, { kind: 'lost' });
        else if (row.stopRequested) {
          this.runs.abort(id, { kind: 'stop' });
        }
      }
    } catch (err) {
      logError('run heartbeat failed', err);
    }
  }

  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      this.runs.recovered(await recoverInterruptedRuns(this.db, this.timings.staleAfterMs));
    } catch (err) {
      logError('run recovery failed', err);
    } finally {
      this.sweeping = false;
    }
  }
}
