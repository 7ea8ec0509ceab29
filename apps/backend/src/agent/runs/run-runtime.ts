import type { DatabaseKind } from '@baton/schemas';
import type { Database } from '../../db/client';
import { RedisRunBus } from './redis-run-bus';
import { RunMaintenance, recoverInterruptedRuns, type RunTimings } from './run-maintenance';
import { RunRegistry } from './run-registry';

export interface RunRuntime {
  runs: RunRegistry;
  maintenance: RunMaintenance;
  /** Shutdown: stop taking runs, let running ones finish for `graceMs`, interrupt the rest. */
  close(graceMs: number): Promise<void>;
}

/**
 * Everything a backend process needs to execute runs safely next to other replicas:
 * recovery of runs left by processes that died, heartbeats, the periodic sweep, and
 * (with `REDIS_URL`) shared event logs and Stop signals.
 */
export async function startRunRuntime(opts: { db: Database; databaseKind: DatabaseKind; redisUrl?: string; timings: RunTimings }): Promise<RunRuntime> {
  const bus = opts.redisUrl ? new RedisRunBus(opts.redisUrl) : undefined;
  const runs = new RunRegistry(bus);
  if (bus) await bus.onStop((runId) => runs.abort(runId, { kind: 'stop' }));
  // Only one process can open an embedded database: every run still marked running is an
  // orphan of the previous start. On Postgres other replicas may be alive: wait for staleness.
  runs.recovered(await recoverInterruptedRuns(opts.db, opts.databaseKind === 'pglite' ? null : opts.timings.staleAfterMs), true);
  const maintenance = new RunMaintenance(opts.db, runs, opts.timings);
  maintenance.start();
  return {
    runs,
    maintenance,
    async close(graceMs) {
      await runs.drain(graceMs);
      maintenance.stop();
      await bus?.close();
    },
  };
}
