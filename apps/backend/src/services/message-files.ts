import { type BatonFile, type BatonUIMessage, type BatonUIPart, type FileUIPartInput, fileUIPartSchema, parseFileUrl } from '@baton/schemas';
import type { Database } from '../db/client';
import type { FileStore } from '../storage/file-store';
import { invalidRequest, notFound } from '../errors';
import type { ChatOwner } from './chat-rows';
import { type FileLimits, type FileSettings, lockAttachable, removeStoredObjects, storeUpload } from './files';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A user message as the browser sent it, read: its text (parts joined) and its file parts, in order. */
export interface UserParts {
  text: string;
  /** Text and file parts in the order sent; the text parts are joined into one where the first was. */
  parts: ({ type: 'text' } | FileUIPartInput)[];
  files: FileUIPartInput[];
}

/**
 * What `readUserParts` reads of a message: each part's type and a text part's text. Both the
 * browser's loosely typed request (`UIMessageInput`) and a `BatonUIMessage` (`/v1`'s) are one,
 * so neither is cast to the other.
 */
interface MessageToRead {
  parts: readonly { type: string; text?: unknown }[];
}

/**
 * Checks a new user message's parts: text parts and AI SDK `file` parts only (the shared
 * `fileUIPartSchema`), at most `limits.maxPerMessage` files, and something to say — text or
 * at least one file.
 */
export function readUserParts(message: MessageToRead, limits: FileLimits): UserParts {
  const texts: string[] = [];
  const parts: UserParts['parts'] = [];
  const files: FileUIPartInput[] = [];
  for (const [i, part] of message.parts.entries()) {
    if (part.type === 'text' && typeof part.text === 'string') {
      texts.push(part.text);
      if (texts.length === 1) parts.push({ type: 'text' });
      continue;
    }
    if (part.type !== 'file') throw invalidRequest(`message.parts: a user message may only hold text and file parts (got "${part.type}")`);
    const parsed = fileUIPartSchema.safeParse(part);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw invalidRequest(`message.parts[${i}]${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`);
    }
    if (!parseFileUrl(parsed.data.url) && !BASE64.test(parsed.data.url.slice(parsed.data.url.indexOf(',') + 1))) {
      throw invalidRequest(`message.parts[${i}].url: the data: URL is not valid base64`);
    }
    files.push(parsed.data);
    parts.push(parsed.data);
  }
  if (files.length > limits.maxPerMessage) {
    throw invalidRequest(`message.parts: a message may carry at most ${limits.maxPerMessage} files (BATON_FILE_MAX_PER_MESSAGE), got ${files.length}`);
  }
  const text = texts.join('\n');
  if (!text.trim() && files.length === 0) throw invalidRequest('message: the text must not be empty');
  return { text, parts, files };
}

/** A name for a `data:` URL's file sent without one: the type it claims picks the extension (the bytes still decide the type). */
const DATA_URL_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** A `data:` URL's bytes (checked as base64 by `readUserParts`). */
const dataUrlBytes = (url: string): Uint8Array => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

/**
 * Inside the transaction that stores the message: every file part made a reference to a
 * Baton file of this chat. A Baton file URL must name an upload of the sender (or a file of
 * this chat) in this workspace — anything else is 404 like an unknown id; a `data:` URL is
 * stored as an upload of the sender (limits and type checked as for `POST …/files`). The
 * stored part takes the file's own type and name. The returned files go into the chat with
 * `putInChat` once it exists; `created` are those stored here from `data:` URLs. If a part
 * is refused, the objects of those stored before it are removed again (with S3; their rows go
 * with the transaction); if the transaction fails later, the caller's `removeStoredObjects`
 * or, failing that, the sweep (objects no row names, after an hour: file-sweep.ts) removes them.
 */
export async function resolveMessageFiles(
  tx: Database,
  settings: FileSettings,
  owner: ChatOwner,
  chatId: string,
  read: UserParts,
): Promise<{ parts: BatonUIPart[]; files: BatonFile[]; created: BatonFile[] }> {
  const referenced = read.files.flatMap((part) => {
    const ref = parseFileUrl(part.url);
    return ref ? [ref] : [];
  });
  for (const ref of referenced) if (ref.workspaceId !== owner.workspaceId) throw notFound('File', ref.fileId);
  const existing = new Map(
    (
      await lockAttachable(
        tx,
        owner,
        chatId,
        referenced.map((r) => r.fileId),
      )
    ).map((f) => [f.id, f]),
  );
  const files: BatonFile[] = [...existing.values()];
  const created: BatonFile[] = [];
  const parts: BatonUIPart[] = [];
  try {
    for (const part of read.parts) {
      if (part.type === 'text') {
        if (read.text.trim()) parts.push({ type: 'text', text: read.text });
        continue;
      }
      const ref = parseFileUrl(part.url);
      let stored: BatonFile;
      if (ref) stored = existing.get(ref.fileId)!;
      else {
        const claimed = part.url.slice(5, part.url.search(/[;,]/)).toLowerCase();
        const name = part.filename || `attachment.${DATA_URL_EXTENSIONS[claimed] ?? 'bin'}`;
        stored = await storeUpload(tx, settings, owner, { name, bytes: dataUrlBytes(part.url) });
        files.push(stored);
        created.push(stored);
      }
      parts.push({ type: 'file', mediaType: stored.mediaType, filename: stored.name, url: stored.url });
    }
  } catch (err) {
    await removeStoredObjects(settings.store, created);
    throw err;
  }
  return { parts, files, created };
}

/**
 * For turns whose messages arrive whole (`/v1`): in the transaction that stores them, each
 * user message's file parts are checked and stored as `resolveMessageFiles` does for the
 * browser's; the returned files go into the chat with `putInChat` once it exists.
 */
export async function storeMessageFiles(
  tx: Database,
  settings: FileSettings,
  owner: ChatOwner,
  chatId: string,
  messages: BatonUIMessage[],
): Promise<{ messages: BatonUIMessage[]; files: BatonFile[]; created: BatonFile[] }> {
  const files: BatonFile[] = [];
  const created: BatonFile[] = [];
  const out: BatonUIMessage[] = [];
  try {
    for (const message of messages) {
      if (message.role !== 'user' || !message.parts.some((p) => p.type === 'file')) {
        out.push(message);
        continue;
      }
      const read = readUserParts(message, settings.limits);
      const resolved = await resolveMessageFiles(tx, settings, owner, chatId, read);
      files.push(...resolved.files);
      created.push(...resolved.created);
      out.push({ ...message, parts: resolved.parts });
    }
  } catch (err) {
    // An earlier message's data: URLs were stored; this one's removed their own.
    await removeStoredObjects(settings.store, created);
    throw err;
  }
  return { messages: out, files, created };
}

/**
 * Runs a transaction that may store `data:` URLs as files (reported through `track`): if it
 * fails — a part refused, the chat busy, a pending approval, the commit — the objects of
 * those files are removed (with S3; their rows went with the transaction).
 */
export async function removingCreatedOnFailure<T>(store: FileStore, run: (track: (created: readonly BatonFile[]) => void) => Promise<T>): Promise<T> {
  const created: BatonFile[] = [];
  try {
    return await run((files) => {
      created.push(...files);
    });
  } catch (err) {
    await removeStoredObjects(store, created);
    throw err;
  }
}
