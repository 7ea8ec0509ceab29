import { type BatonFile, INLINE_FILE_TYPES } from '@baton/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import { type AppError, invalidRequest } from '../errors';
import { limitBody } from './body-limit';
import { errorBody } from './errors';

/** Room for the multipart framing around the file (boundaries, part headers, a long file name). */
const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/**
 * An upload's own body limit, in place of the API's 1 MiB (app.ts): a declared length over it
 * is refused before anything is kept, a chunked body as soon as it passes it — never read
 * whole (http/body-limit.ts drains a bounded rest so the client reads the 413).
 */
export function uploadBodyLimit(maxFileBytes: number, tooLarge: () => AppError): MiddlewareHandler {
  return limitBody(maxFileBytes + MULTIPART_ALLOWANCE_BYTES, (c) => {
    const err = tooLarge();
    return c.json(errorBody(err.code, err.message, err.details), 413);
  });
}

/** The one file of a `multipart/form-data` body, in its field `field`. */
export async function readUploadedFile(c: Context, field: string): Promise<{ name: string; bytes: Uint8Array }> {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'multipart/form-data') throw invalidRequest(`the request body must be multipart/form-data with the file in its field "${field}"`);
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw invalidRequest('the request body is not valid multipart/form-data');
  }
  const entries = form.getAll(field);
  const files = entries.filter((entry): entry is File => typeof entry !== 'string');
  if (files.length === 0 || files.length !== entries.length) throw invalidRequest(`the form has no file in its field "${field}"`);
  if (files.length > 1) throw invalidRequest(`one file per request: the form has ${files.length} in its field "${field}"`);
  const upload = files[0]!;
  return { name: upload.name, bytes: new Uint8Array(await upload.arrayBuffer()) };
}

/** RFC 6266 / 5987: an ASCII fallback, and the exact name (emoji and all) percent-encoded. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * Served from Baton's own origin, a file must never be taken for one of its pages: the type is
 * the one read from the bytes, sniffing is off, only raster images are shown inline (anything
 * else is a download), and the answer is a sandboxed document without any resource should
 * someone open it directly, as `/api/image` does.
 */
export function fileResponseHeaders(file: BatonFile): Record<string, string> {
  const inline = INLINE_FILE_TYPES.includes(file.mediaType);
  const text = file.mediaType.startsWith('text/') || file.mediaType === 'application/json';
  return {
    'content-type': text ? `${file.mediaType}; charset=utf-8` : file.mediaType,
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    // A file's bytes never change; who may read them can (a chat deleted), so caches stay private and short.
    'cache-control': 'private, max-age=3600',
  };
}
