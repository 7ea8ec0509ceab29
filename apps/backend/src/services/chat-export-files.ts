import { type BatonFile, type ExportedFile, MAX_EXPORT_FILE_BYTES, parseFileUrl } from '@baton/schemas';
import type { Database } from '../db/client';
import { AppError, invalidRequest } from '../errors';
import type { FileStore } from '../storage/file-store';
import type { ChatOwner } from './chat-rows';
import { type ChatTreeNode, treeNodes } from './chat-tree';
import { type FileSettings, giveFilesToChat, putInChat, readFile, storeUpload } from './files';

/** Every string of a JSON value (a message's parts: a file part's `url`, a delegation's attachments…), in order. */
function eachString(value: unknown, visit: (s: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const v of value) eachString(v, visit);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) eachString(v, visit);
}

/**
 * The files a chat tree's messages name, with their bytes, so that its export is whole: up to
 * `MAX_EXPORT_FILE_BYTES` in all, in the order the conversation names them. The rest (past
 * the limit, or gone) are `filesLeftOut`: their parts keep the URL, as an export without files did.
 */
export async function exportedFiles(
  db: Database,
  store: FileStore,
  owner: ChatOwner,
  tree: ChatTreeNode,
): Promise<{ files: ExportedFile[]; filesLeftOut: string[] }> {
  const urls = new Set<string>();
  for (const node of treeNodes(tree))
    for (const m of node.messages)
      eachString(m.parts, (s) => {
        if (parseFileUrl(s)?.workspaceId === owner.workspaceId) urls.add(s);
      });
  const files: ExportedFile[] = [];
  const filesLeftOut: string[] = [];
  let total = 0;
  for (const url of urls) {
    const read = await readFile(db, store, owner, parseFileUrl(url)!.fileId).catch((err) => {
      // Deleted since, or never this person's: left out like a file past the limit. A storage failure is not.
      if (err instanceof AppError && err.status === 404) return undefined;
      throw err;
    });
    if (!read || total + read.bytes.byteLength > MAX_EXPORT_FILE_BYTES) {
      filesLeftOut.push(url);
      continue;
    }
    total += read.bytes.byteLength;
    files.push({ url, name: read.file.name, mediaType: read.file.mediaType, data: Buffer.from(read.bytes).toString('base64') });
  }
  return { files, filesLeftOut };
}

/**
 * An import's files, stored as the importer's uploads with the upload's own checks (size,
 * type read from the bytes): exported URL → the new file. A file refused there refuses the
 * import (400/413/415 naming it), and `track` hears of each stored file so that a failed
 * import removes their objects too.
 */
export async function storeImportedFiles(
  tx: Database,
  settings: FileSettings,
  owner: ChatOwner,
  files: readonly ExportedFile[],
  track: (created: readonly BatonFile[]) => void,
): Promise<Map<string, BatonFile>> {
  const stored = new Map<string, BatonFile>();
  for (const [i, f] of files.entries()) {
    if (stored.has(f.url)) throw invalidRequest(`invalid import: files[${i}]: the URL "${f.url}" appears twice`);
    const file = await storeUpload(tx, settings, owner, { name: f.name, bytes: Buffer.from(f.data, 'base64') });
    track([file]);
    stored.set(f.url, file);
  }
  return stored;
}

/** The imported files go with the new chat; a sub-chat whose messages name one may read it too (as a delegation's attachments are given). */
export async function placeImportedFiles(
  tx: Database,
  topChatId: string,
  subChatMessages: readonly { chatId: string; parts: unknown }[],
  files: ReadonlyMap<string, BatonFile>,
): Promise<void> {
  if (files.size === 0) return;
  await putInChat(tx, topChatId, [...files.values()]);
  const byUrl = new Map([...files.values()].map((f) => [f.url, f.id]));
  for (const sub of subChatMessages) {
    const ids = new Set<string>();
    eachString(sub.parts, (s) => {
      const id = byUrl.get(s);
      if (id) ids.add(id);
    });
    await giveFilesToChat(tx, sub.chatId, [...ids]);
  }
}
