import { createHash } from 'node:crypto';
import { and, eq, exists, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  type BatonFile,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES_PER_MESSAGE,
  errorCodes,
  FILE_MEDIA_TYPES,
  type FileMediaType,
  fileUrl,
} from '@baton/schemas';
import type { Database } from '../db/client';
import { chat, chatFile, file } from '../db/schema';
import { logError } from '../error-text';
import { AppError, invalidRequest, notFound } from '../errors';
import { newId } from '../ids';
import type { FileStore } from '../storage/file-store';
import type { ChatOwner } from './chat-rows';
import { cleanFileName, sniffFileType } from './file-types';

/** What an upload may be (`BATON_FILE_MAX_BYTES`, `BATON_FILE_TYPES`), and how many one message may carry (`BATON_FILE_MAX_PER_MESSAGE`). */
export interface FileLimits {
  maxBytes: number;
  mediaTypes: readonly FileMediaType[];
  maxPerMessage: number;
}

export const DEFAULT_FILE_LIMITS: FileLimits = {
  maxBytes: DEFAULT_MAX_FILE_BYTES,
  mediaTypes: FILE_MEDIA_TYPES,
  maxPerMessage: DEFAULT_MAX_FILES_PER_MESSAGE,
};

/** Where files are kept and what they may be: one per process. */
export interface FileSettings {
  store: FileStore;
  limits: FileLimits;
}

type FileRow = typeof file.$inferSelect;
// Every column but the bytes: rows are read for access checks and lists far more often than served.
const { bytes: _bytes, ...fileColumns } = getTableColumns(file);

export function toFile(row: Omit<FileRow, 'bytes'>): BatonFile {
  return {
    id: row.id,
    name: row.name,
    mediaType: row.mediaType as FileMediaType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
    url: fileUrl(row.workspaceId, row.id),
  };
}

/** "20 MiB", "1.5 MiB", "512 KiB", "100 bytes": a limit as a person reads it. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  }
  return `${n} bytes`;
}

export const fileTooLarge = (limits: FileLimits) =>
  new AppError(413, errorCodes.payloadTooLarge, `a file may be at most ${formatBytes(limits.maxBytes)} (BATON_FILE_MAX_BYTES)`, {
    maxBytes: limits.maxBytes,
  });

const unsupportedType = (name: string, what: string, limits: FileLimits) =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    `${name}: this type of file can't be attached (${what}). Accepted: ${limits.mediaTypes.join(', ')} (text/plain: any UTF-8 text, source code included)`,
    { accepted: limits.mediaTypes },
  );

/**
 * Stores an upload of `owner` (in no chat yet): its limits checked and its type read from the
 * bytes first, so nothing is kept of a refused file. The bytes go to the store before the row
 * is written; if the row cannot be written, what the store kept is removed again.
 */
export async function storeUpload(
  db: Database,
  { store, limits }: FileSettings,
  owner: ChatOwner,
  upload: { name: string; bytes: Uint8Array },
): Promise<BatonFile> {
  const { bytes } = upload;
  if (bytes.byteLength > limits.maxBytes) throw fileTooLarge(limits);
  const name = cleanFileName(upload.name);
  if (bytes.byteLength === 0) throw invalidRequest(`${name}: the file is empty`);
  const sniffed = await sniffFileType(bytes, name);
  if ('refused' in sniffed) throw unsupportedType(name, sniffed.refused, limits);
  if (!limits.mediaTypes.includes(sniffed.mediaType)) throw unsupportedType(name, sniffed.mediaType, limits);

  const id = newId('file');
  const storageKey = storageKeyOf(id);
  const inRow = await store.save(storageKey, bytes, sniffed.mediaType).catch((err) => {
    throw storageUnavailable('storing an upload', err);
  });
  try {
    const [row] = await db
      .insert(file)
      .values({
        id,
        workspaceId: owner.workspaceId,
        userId: owner.userId,
        name,
        mediaType: sniffed.mediaType,
        size: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        storage: store.kind,
        storageKey,
        bytes: inRow,
      })
      .returning(fileColumns);
    return toFile(row!);
  } catch (err) {
    await store.remove(storageKey).catch((removeErr) => logError(`removing the object of an upload that was not stored (${storageKey})`, removeErr));
    throw err;
  }
}

/** Where a file's bytes are kept outside its row (S3): `files/<id>`. */
export const storageKeyOf = (fileId: string) => `files/${fileId}`;

/**
 * Removes the objects of uploads stored in a transaction that then failed: their rows go with
 * the transaction, objects in S3 would stay (a failure here is logged; the sweep removes
 * objects no row names later: file-sweep.ts). Nothing to do for the database store.
 */
export async function removeStoredObjects(store: FileStore, files: readonly BatonFile[]): Promise<void> {
  for (const f of files) {
    const key = storageKeyOf(f.id);
    await store.remove(key).catch((err) => logError(`removing the object of an upload whose message was not stored (${key})`, err));
  }
}

/**
 * Who may read a file: while it is in no chat, its uploader; once in a chat, whoever may read
 * that chat — its author (chats are private to them). Anyone else, in this workspace or
 * another, finds nothing.
 */
const readableBy = (owner: ChatOwner) =>
  and(
    eq(file.workspaceId, owner.workspaceId),
    or(
      and(isNull(file.chatId), eq(file.userId, owner.userId)),
      sql`exists (select 1 from ${chat} where ${chat.id} = ${file.chatId} and ${chat.workspaceId} = ${owner.workspaceId} and ${chat.userId} = ${owner.userId})`,
    ),
  );

/** A file `owner` may read, with its bytes (404 otherwise). */
export async function readFile(db: Database, store: FileStore, owner: ChatOwner, id: string): Promise<{ file: BatonFile; bytes: Uint8Array }> {
  const [row] = await db
    .select()
    .from(file)
    .where(and(eq(file.id, id), readableBy(owner)));
  if (!row) throw notFound('File', id);
  return { file: toFile(row), bytes: await loadBytes(store, row) };
}

/** From where this file was stored: a file kept in the database stays readable after S3 is configured. */
function loadBytes(store: FileStore, row: FileRow): Promise<Uint8Array> {
  if (row.storage === 'database') return Promise.resolve(row.bytes ?? new Uint8Array());
  if (store.kind !== 's3') throw new AppError(503, errorCodes.unavailable, 'this file is kept in S3-compatible storage, which is not configured (BATON_S3_*)');
  return store.load(row.storageKey, row.bytes).catch((err) => {
    throw storageUnavailable(`reading ${row.storageKey}`, err);
  });
}

/** The storage service failing is logged for the operator; the client learns only that it may try again. */
function storageUnavailable(what: string, err: unknown): AppError {
  logError(`file storage: ${what} failed`, err);
  return new AppError(503, errorCodes.unavailable, 'the file storage is not available right now: try again later');
}

/**
 * Puts `owner`'s uploads into one of their chats (the step of sending a message with files):
 * from then on they are read like the chat and go with it. Each id must be an upload of
 * `owner` in this workspace (404 like an unknown id otherwise), in no chat or already in this
 * one (attaching again changes nothing); one in another of their chats is a 409.
 */
export async function attachFilesToChat(db: Database, owner: ChatOwner, chatId: string, fileIds: readonly string[]): Promise<BatonFile[]> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: chat.id })
      .from(chat)
      .where(and(eq(chat.id, chatId), eq(chat.workspaceId, owner.workspaceId), eq(chat.userId, owner.userId)));
    if (!target) throw notFound('Chat', chatId);
    const files = await lockAttachable(tx, owner, chatId, fileIds);
    await putInChat(tx, chatId, files);
    return files;
  });
}

/**
 * The files `fileIds` (in their order, without repeats), locked until the transaction ends,
 * once checked that they may go into chat `chatId` (which may not exist yet: a message
 * starting a chat). The rules of `attachFilesToChat`.
 */
export async function lockAttachable(tx: Database, owner: ChatOwner, chatId: string, fileIds: readonly string[]): Promise<BatonFile[]> {
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) return [];
  const rows = await tx
    .select(fileColumns)
    .from(file)
    .where(and(inArray(file.id, ids), eq(file.workspaceId, owner.workspaceId), eq(file.userId, owner.userId)))
    .for('update');
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) throw notFound('File', id);
    if (row.chatId !== null && row.chatId !== chatId) throw new AppError(409, errorCodes.conflict, `file "${id}" is already in another chat`);
  }
  return ids.map((id) => toFile(byId.get(id)!));
}

/** Puts files checked by `lockAttachable` into the chat (which must exist by now). */
export async function putInChat(tx: Database, chatId: string, files: readonly BatonFile[]): Promise<void> {
  if (files.length === 0) return;
  await tx
    .update(file)
    .set({ chatId })
    .where(
      and(
        inArray(
          file.id,
          files.map((f) => f.id),
        ),
        isNull(file.chatId),
      ),
    );
}

/** A file is in a chat when a message put it there, or when the chat is a sub-chat it was given to (`chat_file`). */
const inChat = (tx: Database, chatId: string) =>
  or(
    eq(file.chatId, chatId),
    exists(
      tx
        .select({ one: sql`1` })
        .from(chatFile)
        .where(and(eq(chatFile.chatId, chatId), eq(chatFile.fileId, file.id))),
    ),
  );

/**
 * A file of a chat with its bytes, for the model at turn time (the turn runs for whoever
 * may read the chat); undefined when it is gone or is not in this chat.
 */
export async function readChatFile(
  db: Database,
  store: FileStore,
  ref: { workspaceId: string; chatId: string; fileId: string },
): Promise<{ file: BatonFile; bytes: Uint8Array } | undefined> {
  const [row] = await db
    .select()
    .from(file)
    .where(and(eq(file.id, ref.fileId), eq(file.workspaceId, ref.workspaceId), inChat(db, ref.chatId)));
  if (!row) return undefined;
  return { file: toFile(row), bytes: await loadBytes(store, row) };
}

/** Which of `fileIds` are in the chat (put there by its messages or given to it), without their bytes. */
export async function findChatFiles(db: Database, ref: { workspaceId: string; chatId: string }, fileIds: readonly string[]): Promise<BatonFile[]> {
  if (fileIds.length === 0) return [];
  const rows = await db
    .select(fileColumns)
    .from(file)
    .where(and(inArray(file.id, [...fileIds]), eq(file.workspaceId, ref.workspaceId), inChat(db, ref.chatId)));
  return rows.map(toFile);
}

/**
 * Gives files to a sub-chat (its `newTask` call's attachments, checked by the caller to be in
 * the parent chat): from then on they are read in it too. They still belong to the chat they
 * came from and go with it; the sub-chat's rows go with the sub-chat.
 */
export async function giveFilesToChat(tx: Database, chatId: string, fileIds: readonly string[]): Promise<void> {
  if (fileIds.length === 0) return;
  await tx
    .insert(chatFile)
    .values(fileIds.map((fileId) => ({ chatId, fileId })))
    .onConflictDoNothing();
}

/**
 * Stores bytes the runtime produced in a chat (an MCP tool's image) as a file of that chat:
 * the upload's checks and the attachment in one transaction, owned by the chat's owner.
 */
export function storeChatFile(
  db: Database,
  settings: FileSettings,
  owner: ChatOwner,
  chatId: string,
  upload: { name: string; bytes: Uint8Array },
): Promise<BatonFile> {
  let stored: BatonFile | undefined;
  return db
    .transaction(async (tx) => {
      stored = await storeUpload(tx, settings, owner, upload);
      await putInChat(tx, chatId, [stored]);
      return stored;
    })
    .catch(async (err) => {
      // The row went with the transaction; an object in S3 would not.
      if (stored) await removeStoredObjects(settings.store, [stored]);
      throw err;
    });
}
