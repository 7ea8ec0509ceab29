import { attachmentIds, conversationFiles, tooManyAttachmentsResult, unknownAttachmentsResult } from '@baton/delegation';
import type { BatonFile, BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import { findChatFiles } from '../services/files';

/**
 * The files a `newTask` call gives its sub-agent (`attachments`), in the call's order, or why
 * the call cannot run — the same rule in both flows (the browser's start, the server's
 * `execute`, a retry): each id must be a file of the delegating conversation, i.e. in a user
 * message of `history` and in the chat as the database has it (put there by a message, or
 * given to it when it is a sub-chat itself), and one task carries at most what one message may.
 */
export async function taskAttachments(
  db: Database,
  chat: { workspaceId: string; id: string },
  history: readonly BatonUIMessage[],
  attachments: readonly string[] | undefined,
  maxPerMessage: number,
): Promise<{ files: BatonFile[] } | { refused: string }> {
  const ids = attachmentIds(attachments);
  if (ids.length === 0) return { files: [] };
  if (ids.length > maxPerMessage) return { refused: tooManyAttachmentsResult(ids.length, maxPerMessage) };
  const listed = conversationFiles(history, chat.workspaceId);
  const stored = new Map((await findChatFiles(db, { workspaceId: chat.workspaceId, chatId: chat.id }, ids)).map((f) => [f.id, f]));
  const unknown = ids.filter((id) => !stored.has(id) || !listed.some((f) => f.id === id));
  if (unknown.length > 0) return { refused: unknownAttachmentsResult(unknown, listed) };
  return { files: ids.map((id) => stored.get(id)!) };
}
