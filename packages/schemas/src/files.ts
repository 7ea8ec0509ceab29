import { z } from 'zod';
import { timestampSchema } from './common';

/**
 * Files a person uploads to use in a chat (`POST /api/workspaces/:ws/files`). The type is
 * decided by the server from the bytes, never from the client's claim: raster images, PDFs,
 * and text-like files (plain text, Markdown, CSV, JSON, source code — all served as text).
 */
export const FILE_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
] as const;
export type FileMediaType = (typeof FILE_MEDIA_TYPES)[number];

/** Shown inline (an `<img>` may load them); every other file is served as a download. */
export const INLINE_FILE_TYPES: readonly FileMediaType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Size per file unless the operator sets `BATON_FILE_MAX_BYTES`. */
export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Unattached uploads (in no chat) are removed this long after they were uploaded. */
export const UNATTACHED_FILE_TTL_MS = 24 * 60 * 60 * 1000;

/** Where a file's bytes are served; also the `url` of an AI SDK `file` part that refers to it. */
export const fileUrl = (workspaceId: string, fileId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/files/${encodeURIComponent(fileId)}`;

export const fileSchema = z
  .object({
    id: z.string(),
    /** The uploaded file's name, cleaned (no path, no control characters, at most 255 characters). */
    name: z.string(),
    /** Decided from the bytes (see FILE_MEDIA_TYPES). */
    mediaType: z.enum(FILE_MEDIA_TYPES),
    /** Bytes. */
    size: z.number().int().nonnegative(),
    createdAt: timestampSchema,
    /** `GET` serves the bytes (to the uploader, and once attached to whoever may read the chat). */
    url: z.string(),
  })
  .meta({ id: 'File' });
export type BatonFile = z.infer<typeof fileSchema>;

/** Files one message may carry unless the operator sets `BATON_FILE_MAX_PER_MESSAGE`. */
export const DEFAULT_MAX_FILES_PER_MESSAGE = 10;

/** The workspace and file a Baton file URL (`fileUrl`) names, or undefined for any other URL. */
export function parseFileUrl(url: string): { workspaceId: string; fileId: string } | undefined {
  const match = /^\/api\/workspaces\/([^/?#]+)\/files\/([^/?#]+)$/.exec(url);
  if (!match) return undefined;
  try {
    return { workspaceId: decodeURIComponent(match[1]!), fileId: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}

/**
 * The AI SDK's own `file` part as a user message carries it: `url` is a Baton file URL of
 * the chat's workspace (`fileUrl`, an upload of the sender or a file of this chat), or a
 * base64 `data:` URL, which the server stores as a file of the chat and replaces by its URL.
 * The server sets `mediaType` and `filename` from the stored file (the type read from the
 * bytes), whatever the client claimed.
 */
export const fileUIPartSchema = z
  .strictObject({
    type: z.literal('file'),
    mediaType: z.string().max(255),
    filename: z.string().max(1000).optional(),
    url: z.string().refine((url) => parseFileUrl(url) !== undefined || /^data:[^,;]*(;[^,;]*)*;base64,/i.test(url), {
      message: 'must be a Baton file URL (/api/workspaces/:ws/files/:id) or a base64 data: URL',
    }),
    providerMetadata: z.unknown().optional(),
  })
  .meta({ id: 'FileUIPart' });
export type FileUIPartInput = z.infer<typeof fileUIPartSchema>;

/**
 * The output of an MCP tool call whose result held images or binary resources: they are stored
 * as files of the chat, `text` is what the model reads (its text content, embedded resources'
 * text kept, a line naming each stored file). A result with text only stays a plain string.
 */
export const mcpToolOutputSchema = z.object({ text: z.string(), files: z.array(fileSchema).min(1) }).meta({ id: 'McpToolOutput' });
export type McpToolOutput = z.infer<typeof mcpToolOutputSchema>;
