import type { Database } from '../../db/client';
import { storeRunSnapshots, type RunSnapshot } from '../../services/messages';

/** How often a streaming answer stores what it has so far, unless BATON_RUN_SNAPSHOT_MS says otherwise. */
export const DEFAULT_SNAPSHOT_MS = 1_000;

/** A statement's share: enough to absorb a burst, small enough to keep one write short. */
const MAX_BATCH = 100;

interface Pending {
  snapshot: RunSnapshot;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The mid-answer snapshots of all runs of this process, written together (group commit):
 * what is asked for while a write is under way, or in the same turn of the event loop,
 * goes to the database in one statement. Under load the snapshot timers of many runs fire
 * in the same turn, so a burst of 500 answers costs a few statements per second instead
 * of 500 transactions; alone, a snapshot is written at once.
 */
export class SnapshotWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private writing = false;

  /** `intervalMs`: how often a streaming answer asks for a snapshot (BATON_RUN_SNAPSHOT_MS). */
  constructor(
    private readonly db: Database,
    readonly intervalMs = DEFAULT_SNAPSHOT_MS,
  ) {}

  /** Settles once the snapshot is stored (or skipped: its run is no longer running). */
  write(snapshot: RunSnapshot): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ snapshot, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.writing || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush() {
    this.writing = true;
    const batch = this.queue.splice(0, MAX_BATCH);
    try {
      await storeRunSnapshots(
        this.db,
        batch.map((p) => p.snapshot),
      );
      for (const p of batch) p.resolve();
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}
