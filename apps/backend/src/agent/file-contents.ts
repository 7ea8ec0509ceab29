import { type BatonFilePart, isBatonFilePart } from '@baton/delegation';
import { type BatonDataParts, type BatonMessageMetadata, type BatonUIMessage, type BatonUIPart, type BatonUITools, parseFileUrl } from '@baton/schemas';
import type { DataUIPart, FilePart, FileUIPart, TextPart, TextUIPart, UIMessage } from 'ai';
import sharp from 'sharp';
import type { Database } from '../db/client';
import { logError } from '../error-text';
import { readChatFile } from '../services/files';
import { cachedPdfText, pdfTextForModel } from '../services/pdf-text';
import type { FileStore } from '../storage/file-store';

/** Images reach the model at most this large on their long side (what vision models use at most anyway). */
export const MAX_IMAGE_SIDE_PX = 2048;
/** A text file gives the model at most this many characters (UTF-16 units); the rest is cut, and the model is told. */
export const MAX_TEXT_FILE_CHARS = 100_000;

/** The data part a Baton file part becomes before `convertToModelMessages`, which hands its content to the model as it is. */
export type ModelFileContent = TextPart | FilePart;
type FileContentData = { 'baton-file-content': ModelFileContent };
/**
 * A message as the model's input is built from it: Baton's, plus the file contents read for
 * this turn. Its own type, since that part is never stored or streamed (BatonUIMessage does
 * not hold it); a BatonUIMessage is one as it is.
 */
export type ModelInputMessage = UIMessage<BatonMessageMetadata, BatonDataParts & FileContentData, BatonUITools>;
type ModelInputPart = ModelInputMessage['parts'][number];

/**
 * The conversation with each Baton file part (`{ type: 'file', url: fileUrl(ws, id) }`)
 * replaced by what the model is given, its bytes read from the store now (a message keeps
 * only the reference): an image as an image (scaled down to `MAX_IMAGE_SIDE_PX`), a PDF as a
 * file part when the provider takes PDFs (`pdfAsFile`), else as its extracted text (a
 * worker thread's, kept per process: services/pdf-text.ts), a text file as a text part
 * `File <name>:\n<content>`. Only files of this chat are read; a file that is gone becomes a
 * line saying so. `convertDataPart` of `convertToModelMessages` unwraps what this returns.
 */
export async function withFileContents(
  db: Database,
  store: FileStore,
  chat: { workspaceId: string; id: string },
  history: BatonUIMessage[],
  options: { pdfAsFile: boolean },
): Promise<ModelInputMessage[]> {
  if (!history.some(carriesFiles)) return history;
  const read = async (part: BatonUIPart): Promise<ModelInputPart> => {
    if (isBatonFilePart(part)) return { type: 'data-baton-file-content', data: await modelFileContent(db, store, chat, part, options) };
    // A message sent to a running sub-agent (steering) sits in its answer, files and all.
    if (part.type === 'steering-message' && part.parts.some(isBatonFilePart)) {
      return {
        ...part,
        parts: await Promise.all(part.parts.map(async (p) => (isBatonFilePart(p) ? asUIPart(await modelFileContent(db, store, chat, p, options)) : p))),
      };
    }
    return part;
  };
  return Promise.all(history.map(async (m) => (carriesFiles(m) ? { ...m, parts: await Promise.all(m.parts.map(read)) } : m)));
}

/** A user message with Baton file parts, or an answer holding a steering message with some. */
const carriesFiles = (m: BatonUIMessage) =>
  m.parts.some((p) => (m.role === 'user' && isBatonFilePart(p)) || (p.type === 'steering-message' && p.parts.some(isBatonFilePart)));

/**
 * A steering message's parts are UI parts the SDK converts itself (no data parts there): a
 * file's model content as one — its text as text, its bytes as a `data:` URL.
 */
function asUIPart(content: ModelFileContent): TextUIPart | FileUIPart {
  if (content.type === 'text') return { type: 'text', text: content.text };
  const data = content.data as { type: 'data'; data: Uint8Array };
  return {
    type: 'file',
    mediaType: content.mediaType,
    ...(content.filename === undefined ? {} : { filename: content.filename }),
    url: `data:${content.mediaType};base64,${Buffer.from(data.data).toString('base64')}`,
  };
}

/** For `convertToModelMessages`: the model content `withFileContents` put in place of a file part. */
export function convertFileContentPart(part: DataUIPart<BatonDataParts & FileContentData>): ModelFileContent | undefined {
  return part.type === 'data-baton-file-content' ? part.data : undefined;
}

/**
 * What the model is given of one Baton file part of this chat (the rules of `withFileContents`);
 * a message delivered to a running sub-agent gives its files the same way (agent/steering.ts).
 */
export async function modelFileContent(
  db: Database,
  store: FileStore,
  chat: { workspaceId: string; id: string },
  part: Pick<BatonFilePart, 'url' | 'filename'>,
  options: { pdfAsFile: boolean },
): Promise<ModelFileContent> {
  const ref = parseFileUrl(part.url)!;
  const name = part.filename ?? ref.fileId;
  const found =
    ref.workspaceId === chat.workspaceId ? await readChatFile(db, store, { workspaceId: ref.workspaceId, chatId: chat.id, fileId: ref.fileId }) : undefined;
  if (!found) return { type: 'text', text: `[File ${name} is no longer available]` };
  const { file, bytes } = found;
  if (file.mediaType.startsWith('image/')) {
    try {
      const image = await scaledImage(bytes, file.mediaType);
      return { type: 'file', mediaType: image.mediaType, filename: file.name, data: { type: 'data', data: image.bytes } };
    } catch (err) {
      logError(`reading image ${file.id} for a model`, err);
      return { type: 'text', text: `[Image ${file.name} could not be read]` };
    }
  }
  if (file.mediaType === 'application/pdf') {
    if (options.pdfAsFile) return { type: 'file', mediaType: 'application/pdf', filename: file.name, data: { type: 'data', data: bytes } };
    return { type: 'text', text: `File ${file.name}:\n${pdfTextForModel(await cachedPdfText(file.id, bytes))}` };
  }
  const text = new TextDecoder().decode(bytes);
  const shown =
    text.length > MAX_TEXT_FILE_CHARS
      ? `${text.slice(0, MAX_TEXT_FILE_CHARS)}\n[… cut: the file has ${text.length.toLocaleString('en-US')} characters, the first ${MAX_TEXT_FILE_CHARS.toLocaleString('en-US')} are shown]`
      : text;
  return { type: 'text', text: `File ${file.name}:\n${shown}` };
}

/**
 * An image no larger than `MAX_IMAGE_SIDE_PX` on its long side: as it was when it fits,
 * else resized (turned upright first, per its EXIF orientation) in its own format — a GIF as
 * a PNG of its first frame.
 */
async function scaledImage(bytes: Uint8Array, mediaType: string): Promise<{ bytes: Uint8Array; mediaType: string }> {
  const { width = 0, height = 0, orientation } = await sharp(bytes).metadata();
  const long = Math.max(width, height);
  // One that fits and is upright goes as it came; otherwise it is decoded once and written again.
  if (long <= MAX_IMAGE_SIDE_PX && (orientation ?? 1) === 1) return { bytes, mediaType };
  const resized = sharp(bytes).rotate().resize({ width: MAX_IMAGE_SIDE_PX, height: MAX_IMAGE_SIDE_PX, fit: 'inside', withoutEnlargement: true });
  if (mediaType === 'image/jpeg') return { bytes: await resized.jpeg({ quality: 85 }).toBuffer(), mediaType };
  if (mediaType === 'image/webp') return { bytes: await resized.webp({ quality: 85 }).toBuffer(), mediaType };
  return { bytes: await resized.png().toBuffer(), mediaType: 'image/png' };
}
