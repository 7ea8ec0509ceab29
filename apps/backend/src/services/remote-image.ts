import { errorCodes, MAX_REMOTE_IMAGE_BYTES, REMOTE_IMAGE_TYPES } from '@baton/schemas';
import { AppError, isSafeMessageError } from '../errors';

/** How long the image's host may take, headers and body together. */
const IMAGE_TIMEOUT_MS = 10_000;

export interface RemoteImage {
  contentType: (typeof REMOTE_IMAGE_TYPES)[number];
  bytes: Uint8Array;
}

const cannotLoad = (why: string) => new AppError(502, errorCodes.unavailable, `The image could not be loaded: ${why}`);

/**
 * Fetches an image a person asked to see, through the guarded fetch (the same address rules
 * as providers: no link-local or metadata addresses, private ones only with
 * BATON_ALLOW_PRIVATE_URLS; no redirects). No cookie or credential goes with it. Only raster
 * images up to MAX_REMOTE_IMAGE_BYTES come back; anything else is a 502 with the reason.
 */
export async function fetchRemoteImage(guardedFetch: typeof fetch, url: string): Promise<RemoteImage> {
  const signal = AbortSignal.timeout(IMAGE_TIMEOUT_MS);
  let res: Response;
  try {
    res = await guardedFetch(url, { signal, headers: { accept: REMOTE_IMAGE_TYPES.join(', ') } });
  } catch (err) {
    throw cannotLoad(isSafeMessageError(err) ? err.message : signal.aborted ? 'its host did not answer in time' : 'its host could not be reached');
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    throw cannotLoad(`its host answered HTTP ${res.status}`);
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const contentType = REMOTE_IMAGE_TYPES.find((t) => t === type);
  if (!contentType) {
    await res.body?.cancel().catch(() => {});
    throw cannotLoad(`it is not a PNG, JPEG, GIF, WebP or AVIF image (${type ? type.slice(0, 100) : 'no type'})`);
  }
  return { contentType, bytes: await readCapped(res, signal) };
}

async function readCapped(res: Response, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_REMOTE_IMAGE_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw cannotLoad('it is larger than 5 MiB');
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_REMOTE_IMAGE_BYTES) {
        await reader.cancel().catch(() => {});
        throw cannotLoad('it is larger than 5 MiB');
      }
      parts.push(value);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw cannotLoad(signal.aborted ? 'its host did not send it in time' : 'the connection broke off');
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}
