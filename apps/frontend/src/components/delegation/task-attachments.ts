import { attachmentIds, conversationFiles } from '@baton/delegation';
import { type BatonUIMessage, fileUrl } from '@baton/schemas';
import type { FileUIPart } from 'ai';

/** A file a `newTask` call gives its sub-agent, named from the parent's messages when they hold it. */
export interface TaskAttachment {
  id: string;
  name: string;
  url: string;
  /** Known when a message of the parent names the file. */
  mediaType?: string;
}

/**
 * The call's `attachments`, in its order: each named and typed from the parent's messages (the
 * server checks the ids; a file this page has no message of keeps its id as its name).
 */
export function taskAttachments(workspaceId: string, attachments: readonly string[] | undefined, parentMessages: readonly BatonUIMessage[]): TaskAttachment[] {
  const ids = attachmentIds(attachments);
  if (ids.length === 0) return [];
  const known = new Map(conversationFiles(parentMessages, workspaceId).map((f) => [f.id, f]));
  return ids.map((id) => {
    const file = known.get(id);
    return file ? { id, name: file.name, url: file.url, mediaType: file.mediaType } : { id, name: id, url: fileUrl(workspaceId, id) };
  });
}

/**
 * The `file` parts the sub-chat's first message is sent with, so its modal shows them at once
 * (the server stores the call's attachments whatever is sent; a file without a known type is left to it).
 */
export function attachmentParts(files: readonly TaskAttachment[]): FileUIPart[] {
  return files.flatMap((f) => (f.mediaType ? [{ type: 'file' as const, mediaType: f.mediaType, filename: f.name, url: f.url }] : []));
}
