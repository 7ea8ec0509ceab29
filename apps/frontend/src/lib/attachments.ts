import type { FileUIPart } from 'ai';
import { type BatonFile, DEFAULT_MAX_FILES_PER_MESSAGE, INLINE_FILE_TYPES } from '@baton/schemas';
import { ApiError } from './api-client';

/*
 * Files on their way into a message: what the composer's chips show and what Send may do.
 * Pure, so the rules are tested without a browser (attachments.test.ts).
 */

export type AttachmentStatus = 'uploading' | 'ready' | 'failed';

/** One chip of the composer: a file being uploaded, uploaded, or refused. */
export interface Attachment {
  key: string;
  name: string;
  size: number;
  /** The server's type once uploaded, the browser's guess until then (for the icon only). */
  mediaType: string;
  status: AttachmentStatus;
  /** 0 to 1, while uploading. */
  progress: number;
  /** A `blob:` URL of an image, for the chip's thumbnail; revoked when the chip goes. */
  previewUrl?: string;
  /** The stored upload, once ready. */
  file?: BatonFile;
  /** What went wrong, in words a person can act on. */
  error?: string;
}

/**
 * How many files a message may carry. The browser knows only the default: the operator's
 * `BATON_FILE_MAX_PER_MESSAGE` is the backend's, which still refuses a message over it (400,
 * naming the limit), so a lower setting shows as the send's error.
 */
export const MAX_FILES_PER_MESSAGE = DEFAULT_MAX_FILES_PER_MESSAGE;

/** "512 bytes", "14 KB", "2.4 MB": a size as file managers write it (1 KB = 1024 bytes, like the backend's limits). */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const [value, unit] = bytes < 1024 ** 2 ? [bytes / 1024, 'KB'] : bytes < 1024 ** 3 ? [bytes / 1024 ** 2, 'MB'] : [bytes / 1024 ** 3, 'GB'];
  return `${value < 10 ? Number(value.toFixed(1)) : Math.round(value)} ${unit}`;
}

const KIND_LABELS: Record<string, string> = {
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'application/pdf': 'PDF',
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'text/csv': 'CSV',
  'application/json': 'JSON',
};

/** "PDF", "PNG image", "Text": what a file card calls a type; an unknown one by its extension, else "File". */
export function fileKindLabel(mediaType: string, name = ''): string {
  const known = KIND_LABELS[mediaType.toLowerCase()];
  if (known) return known;
  const extension = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1];
  return extension ? extension.toUpperCase() : 'File';
}

/** Shown as a picture (thumbnail, preview): the raster types the backend serves inline. */
export const isImageType = (mediaType: string) => (INLINE_FILE_TYPES as readonly string[]).includes(mediaType.toLowerCase());

/** The accepted types as a sentence: "images (PNG, JPEG, GIF, WebP), PDFs and text files (Markdown, CSV, JSON, code)". */
export function acceptedTypesText(accepted: readonly string[]): string {
  const images = accepted.filter(isImageType).map((t) => KIND_LABELS[t]!.replace(' image', ''));
  const texts = accepted.filter((t) => t.startsWith('text/') || t === 'application/json');
  const groups = [
    images.length ? `images (${images.join(', ')})` : '',
    accepted.includes('application/pdf') ? 'PDFs' : '',
    texts.length ? (texts.includes('text/plain') ? 'text files (Markdown, CSV, JSON, code)' : texts.map((t) => KIND_LABELS[t] ?? t).join(', ')) : '',
  ].filter(Boolean);
  return groups.length > 1 ? `${groups.slice(0, -1).join(', ')} and ${groups.at(-1)}` : (groups[0] ?? '');
}

const detail = (err: ApiError, key: string): unknown => (err.details as Record<string, unknown> | undefined)?.[key];

/**
 * Why `name` could not be attached, from the backend's answer to its upload: the backend's
 * own message where it speaks to the person, the type and size limits said plainly (without
 * the operator's variable names, which mean nothing to the person attaching).
 */
export function uploadErrorText(name: string, err: unknown): string {
  if (!(err instanceof ApiError)) return `${name}: the upload failed (${err instanceof Error ? err.message : String(err)})`;
  if (err.status === 415) {
    const accepted = detail(err, 'accepted');
    const list = Array.isArray(accepted) ? acceptedTypesText(accepted.filter((t): t is string => typeof t === 'string')) : '';
    return `${name}: this type of file can't be attached.${list ? ` You can attach ${list}.` : ''}`;
  }
  if (err.status === 413) {
    const max = detail(err, 'maxBytes');
    return `${name} is too large: a file may be at most ${typeof max === 'number' ? fileSizeText(max) : 'the size the server allows'}.`;
  }
  if (err.code === 'network_error') return `${name}: the upload did not reach the server. Check your connection and attach it again.`;
  const message = err.message.replace(/\s*\(BATON_[A-Z_]+\)/g, '');
  return message.startsWith(`${name}:`) ? message : `${name}: ${message}`;
}

/** What the composer says of a file over the count limit (it is not uploaded). */
export const tooManyFilesText = (name: string, max = MAX_FILES_PER_MESSAGE) => `${name}: a message can carry at most ${max} files.`;

/**
 * Splits newly added files into those that fit the message and those over the count limit.
 * Chips that failed do not count (they are never sent).
 */
export function admitFiles<T>(current: readonly Attachment[], incoming: readonly T[], max = MAX_FILES_PER_MESSAGE): { admitted: T[]; overLimit: T[] } {
  const room = Math.max(0, max - current.filter((a) => a.status !== 'failed').length);
  return { admitted: incoming.slice(0, room), overLimit: incoming.slice(room) };
}

/** The message's `file` parts: the uploads that are ready, in the order they were added. */
export function fileParts(attachments: readonly Attachment[]): FileUIPart[] {
  return attachments.flatMap((a) =>
    a.status === 'ready' && a.file ? [{ type: 'file' as const, mediaType: a.file.mediaType, filename: a.file.name, url: a.file.url }] : [],
  );
}

/** Whether the composer may send, and when not because of its files, why (shown under the box). */
export function sendability(text: string, attachments: readonly Attachment[]): { canSend: boolean; reason?: string } {
  const uploading = attachments.filter((a) => a.status === 'uploading').length;
  if (uploading > 0) return { canSend: false, reason: uploading === 1 ? 'Uploading a file…' : `Uploading ${uploading} files…` };
  if (attachments.some((a) => a.status === 'failed')) return { canSend: false, reason: "Remove the files that couldn't be attached to send." };
  return { canSend: text.trim().length > 0 || attachments.some((a) => a.status === 'ready') };
}

/** Files a drag or paste carries (a screenshot pasted from the clipboard is one), or none. */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  if (data.files.length > 0) return Array.from(data.files);
  // Some browsers list a pasted image only among the items.
  return Array.from(data.items)
    .filter((item) => item.kind === 'file')
    .flatMap((item) => item.getAsFile() ?? []);
}

/**
 * The files a paste attaches. A screenshot, a copied image or files copied in a file manager
 * are attached; cells copied from a spreadsheet or a document also come with a picture of
 * themselves beside their text and HTML, and there the person meant the text (the browser
 * pastes it).
 */
export function pastedFiles(data: DataTransfer | null): File[] {
  const files = filesOf(data);
  if (files.length === 0 || !data) return [];
  const types = Array.from(data.types);
  const renderedText = types.includes('text/html') && data.getData('text/plain').trim() !== '' && files.every((f) => f.type.startsWith('image/'));
  return renderedText ? [] : files;
}

/** A file without a name (some clipboards give a pasted image none) gets one, since the server keeps it. */
export const nameOf = (file: File) => file.name || `Pasted image.${file.type.split('/')[1] || 'png'}`;

/**
 * What `sendMessage` takes for a message of text and files: no text part when there is no
 * text (a message of files only), no `files` when there are none.
 */
export function messageInput(text: string, files: readonly FileUIPart[]): { text: string; files?: FileUIPart[] } | { files: FileUIPart[] } {
  if (!text) return { files: [...files] };
  return files.length > 0 ? { text, files: [...files] } : { text };
}
