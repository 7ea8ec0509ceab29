import type { Context, MiddlewareHandler } from 'hono';

/**
 * How much of a body over the limit is read and thrown away before the 413 goes out, and for
 * how long at most. A server that answers and closes while the client is still writing makes
 * the client's write fail (EPIPE, a reset) before it reads the answer: fetch and most
 * clients then report a dropped connection instead of the 413. Reading the rest first lets
 * the client finish writing and read the answer. A body larger than this (or an uploader too
 * slow for it) is cut off as before: the bound keeps a client from making the server read
 * without end.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

/** Reads and drops the rest of a body, up to `maxBytes` in `maxMs`; cancels what is left. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  let read = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), maxMs)));
  try {
    while (read <= maxBytes && Date.now() < deadline) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late' || next.done) break;
      read += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to read.
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
}

/**
 * A body limit (in place of `hono/body-limit`): a declared length over `maxSize` is refused
 * without keeping any of the body, a chunked body as soon as it passes it; either way the
 * rest is drained (within the bounds above) before `tooLarge` answers, with
 * `Connection: close` so the client does not reuse the socket.
 */
export function limitBody(maxSize: number, tooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const headers = c.req.raw.headers;
    const declared = headers.has('content-length') && !headers.has('transfer-encoding') ? Number(headers.get('content-length')) : undefined;
    if (declared !== undefined && declared <= maxSize) return next();
    const reader = body.getReader();
    const refuse = async (alreadyRead: number) => {
      // A body far larger than the bound is cut off at once: draining would not save it.
      if (declared === undefined || declared - alreadyRead <= DRAIN_MAX_BYTES) await drain(reader, DRAIN_MAX_BYTES, DRAIN_MAX_MS);
      else reader.cancel().catch(() => {});
      c.header('Connection', 'close');
      return tooLarge(c);
    };
    if (declared !== undefined) return refuse(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) return refuse(size);
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks) });
    return next();
  };
}
