import { UNATTACHED_FILE_TTL_MS } from '@baton/schemas';
import { and, inArray, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { file, fileObjectRemoval } from '../db/schema';
import { logError } from '../error-text';
import type { FileStore } from '../storage/file-store';
import { log } from '../ops/logger';

/** How often each process sweeps (and once at start-up): an unattached upload lives at most a day and this long. */
export const FILE_SWEEP_INTERVAL_MS = 15 * 60 * 1000;
const BATCH = 500;

export interface FileSweepResult {
  /** Uploads removed because they were in no chat a day after upload. */
  unattached: number;
  /** S3 objects removed whose rows had gone (their chat deleted, or swept here). */
  objects: number;
}

/**
 * Removes uploads that were never attached to a chat within a day (`now` is injected so
 * tests need not wait), then, with S3 storage, the objects whose rows are gone — queued by
 * the database's trigger whichever way the rows went. Several replicas may sweep at once:
 * deleting twice is harmless.
 */
export async function sweepFiles(db: Database, store: FileStore, now: Date = new Date()): Promise<FileSweepResult> {
  const cutoff = new Date(now.getTime() - UNATTACHED_FILE_TTL_MS);
  let unattached = 0;
  for (;;) {
    const stale = db
      .select({ id: file.id })
      .from(file)
      .where(and(isNull(file.chatId), lt(file.createdAt, cutoff)))
      .limit(BATCH);
    const removed = await db
      .delete(file)
      .where(and(inArray(file.id, stale), isNull(file.chatId)))
      .returning({ id: file.id });
    unattached += removed.length;
    if (removed.length < BATCH) break;
  }
  let objects = 0;
  // Without S3 there are no objects to remove (rows of files kept in S3 before it was switched off wait for it).
  if (store.kind === 's3') {
    for (;;) {
      const keys = await db.select({ key: fileObjectRemoval.storageKey }).from(fileObjectRemoval).limit(BATCH);
      for (const { key } of keys) {
        await store.remove(key);
        await db.delete(fileObjectRemoval).where(inArray(fileObjectRemoval.storageKey, [key]));
        objects++;
      }
      if (keys.length < BATCH) break;
    }
  }
  return { unattached, objects };
}

/** The periodic sweep of one process; `stop` at shutdown. */
export function startFileSweeper(db: Database, store: FileStore, intervalMs = FILE_SWEEP_INTERVAL_MS): { stop(): void } {
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const { unattached, objects } = await sweepFiles(db, store);
      if (unattached + objects > 0) log.info({ unattached, objects }, `files: removed ${unattached} unattached upload(s), ${objects} stored object(s)`);
    } catch (err) {
      logError('file sweep failed', err);
    } finally {
      sweeping = false;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
