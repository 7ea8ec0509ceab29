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
