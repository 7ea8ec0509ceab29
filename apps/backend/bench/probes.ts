// Instruments Baton's thread for the time-to-first-token breakdown: when a request arrives,
// when the model is called and answers, when the first text-delta leaves, and every query.
// Installed only around the breakdown samples; the headline figures are measured without it.
import pg from 'pg';
import type { DatabaseHandle } from '../src/db/client';
import { clock } from './stats';


export interface Span {
  start: number;
  end: number;
}

export interface RequestMarks {
  arrive?: number;
  headers?: number;
  modelRequest?: number;
  modelHeaders?: number;
  modelFirstContent?: number;
  firstDeltaOut?: number;
}

const decoder = new TextDecoder();

/** Passes bytes through, calling `onMatch` once, when a chunk first matches `pattern`. */
function watchBody(body: ReadableStream<Uint8Array>, pattern: RegExp, onMatch: () => void): ReadableStream<Uint8Array> {
  let seen = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!seen && pattern.test(decoder.decode(chunk))) {
          seen = true;
          onMatch();
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** Wraps Baton's fetch handler: marks arrival, response headers and the first text-delta written. */
export function probeHandler(marks: () => RequestMarks) {
  return async (handler: (req: Request) => Response | Promise<Response>, req: Request): Promise<Response> => {
    const m = marks();
    m.arrive = clock();
    const res = await handler(req);
    m.headers = clock();
    if (!res.body) return res;
    const body = watchBody(res.body, /"type":"text-delta"/, () => (m.firstDeltaOut = clock()));
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

/** Wraps the fetch Baton calls the model with: marks the call and the model's first content. */
export function probeModelFetch(baseURL: string, marks: () => RequestMarks) {
  return async (original: typeof fetch, input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(baseURL)) return original(input, init);
    const m = marks();
    m.modelRequest = clock();
    const res = await original(input, init);
    m.modelHeaders = clock();
    if (!res.body) return res;
    const body = watchBody(res.body, /"content":"[^"]/, () => (m.modelFirstContent = clock()));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Records the span of every database call (PGlite: queries and whole transactions; pg: every client.query). */
export function probeDatabase(handle: DatabaseHandle): { spans: Span[]; uninstall(): void } {
  const spans: Span[] = [];
  const timed = async <T>(run: () => Promise<T>): Promise<T> => {
    const start = clock();
    try {
      return await run();
    } finally {
      spans.push({ start, end: clock() });
    }
  };
  if (handle.kind === 'pglite') {
    const client = (handle.db as unknown as { $client: Record<string, (...a: any[]) => Promise<any>> }).$client;
    const originals = { query: client.query!, exec: client.exec!, transaction: client.transaction! };
    client.query = (...a) => timed(() => originals.query.apply(client, a));
    client.exec = (...a) => timed(() => originals.exec.apply(client, a));
    // Statements inside a transaction run in it; the span of the whole transaction counts once.
    client.transaction = (fn, ...rest) => timed(() => originals.transaction.call(client, fn, ...rest));
    return { spans, uninstall: () => Object.assign(client, originals) };
  }
  const proto = pg.Client.prototype as unknown as { query: (...a: any[]) => any };
  const original = proto.query;
  proto.query = function (this: unknown, ...a: any[]) {
    const start = clock();
    const done = () => spans.push({ start, end: clock() });
    const cb = a.at(-1);
    if (typeof cb === 'function') {
      a[a.length - 1] = (...r: unknown[]) => (done(), cb(...r));
      return original.apply(this, a);
    }
    const out = original.apply(this, a);
    if (out && typeof out.then === 'function') out.then(done, done);
    else done();
    return out;
  };
  return { spans, uninstall: () => void (proto.query = original) };
}
