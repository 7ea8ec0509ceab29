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
/**
 * An object with no row is removed once it is this old: the bytes of an upload are put before
 * its row is written, and the transaction writing it (a message's) is still open meanwhile.
 */
export const ORPHAN_OBJECT_GRACE_MS = 60 * 60 * 1000;

export interface FileSweepResult {
  /** Uploads removed because they were in no chat a day after upload. */
  unattached: number;
  /** S3 objects removed whose rows had gone (their chat deleted, or swept here). */
  objects: number;
  /** S3 objects removed that never had a row: the transaction that would have written it failed, or the process stopped first. */
  orphans: number;
}

/**
 * Removes uploads that were never attached to a chat within a day (`now` is injected so
 * tests need not wait), then, with S3 storage, the objects whose rows are gone — queued by
 * the database's trigger whichever way the rows went — and last the objects under `files/`
 * that no row names and are older than `ORPHAN_OBJECT_GRACE_MS`: an upload in a message whose
 * transaction then failed (a `data:` URL before a refused part), or a process that stopped
 * between the object and its row. Several replicas may sweep at once: deleting twice is harmless.
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
  const orphans = store.kind === 's3' ? await removeOrphanObjects(db, store, now) : 0;
  return { unattached, objects, orphans };
}

/** Objects of the bucket's `files/` that no file row names, old enough that no open transaction is still writing theirs. */
async function removeOrphanObjects(db: Database, store: FileStore, now: Date): Promise<number> {
  const cutoff = now.getTime() - ORPHAN_OBJECT_GRACE_MS;
  let removed = 0;
  for await (const page of store.list('files/')) {
    const old = page.filter((o) => o.lastModified.getTime() < cutoff).map((o) => o.key);
    if (old.length === 0) continue;
    const named = await db.select({ key: file.storageKey }).from(file).where(inArray(file.storageKey, old));
    const kept = new Set(named.map((r) => r.key));
    for (const key of old) {
      if (kept.has(key)) continue;
      await store.remove(key);
      removed++;
    }
  }
  return removed;
}

/** The periodic sweep of one process; `stop` at shutdown. */
export function startFileSweeper(db: Database, store: FileStore, intervalMs = FILE_SWEEP_INTERVAL_MS): { stop(): void } {
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const { unattached, objects, orphans } = await sweepFiles(db, store);
      if (unattached + objects + orphans > 0)
        log.info(
          { unattached, objects, orphans },
          `files: removed ${unattached} unattached upload(s), ${objects} stored object(s), ${orphans} object(s) that never had a row`,
        );
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
