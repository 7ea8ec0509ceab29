import { mcpToolOutputSchema, parseFileUrl, type BatonUIMessage } from '@baton/schemas';
import { isToolCallPart } from './parts';

// The files a conversation holds, as both flows read them to give a sub-agent its
// `attachments`: the browser (to send them with the task and show them in the block) and the
// server (to list them in `newTask`'s description and check a call before its sub-chat is born).

/** A file of a conversation, as the `file` part of a user message names it. */
export interface ConversationFile {
  id: string;
  name: string;
  mediaType: string;
  /** The Baton file URL (`fileUrl`). */
  url: string;
  /** It came with the latest user message (the one the agent answers). */
  inLatestMessage: boolean;
}

type MessageLike = Pick<BatonUIMessage, 'role' | 'parts'>;

/** A message's files: a user message's `file` parts, and what its tool calls stored (an MCP result's images and resources). */
function filesOf(message: MessageLike): { url: string; name?: string; mediaType: string }[] {
  if (message.role === 'user') return message.parts.flatMap((p) => (p.type === 'file' ? [{ url: p.url, name: p.filename, mediaType: p.mediaType }] : []));
  return message.parts.flatMap((p) => {
    if (!isToolCallPart(p) || p.state !== 'output-available') return [];
    const stored = mcpToolOutputSchema.safeParse(p.output);
    return stored.success ? stored.data.files : [];
  });
}

/**
 * The Baton files of the conversation in the order they first appear, once each — those of
 * its user messages and those its tool calls stored: only URLs of this workspace count (a
 * stored message holds no other).
 */
export function conversationFiles(messages: readonly MessageLike[], workspaceId: string): ConversationFile[] {
  const byId = new Map<string, ConversationFile>();
  let latest = -1;
  for (let i = messages.length - 1; i >= 0 && latest < 0; i--) if (messages[i]!.role === 'user') latest = i;
  messages.forEach((message, i) => {
    for (const f of filesOf(message)) {
      const ref = parseFileUrl(f.url);
      if (!ref || ref.workspaceId !== workspaceId) continue;
      const known = byId.get(ref.fileId);
      if (known) known.inLatestMessage ||= i === latest;
      else byId.set(ref.fileId, { id: ref.fileId, name: f.name ?? ref.fileId, mediaType: f.mediaType, url: f.url, inLatestMessage: i === latest });
    }
  });
  return [...byId.values()];
}

/** The ids a call asks for, once each, in its order. */
export const attachmentIds = (attachments: readonly string[] | undefined): string[] => [...new Set(attachments ?? [])];

/** The attachments of a call that are not files of the conversation, in the call's order. */
export function unknownAttachments(attachments: readonly string[] | undefined, files: readonly Pick<ConversationFile, 'id'>[]): string[] {
  const known = new Set(files.map((f) => f.id));
  return attachmentIds(attachments).filter((id) => !known.has(id));
}
