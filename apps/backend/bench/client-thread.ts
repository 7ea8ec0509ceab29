// Worker thread: the HTTP client. Timing on its own event loop means a token is seen when
// it reaches the socket, not when the server's thread happens to yield.
import { isCompletionContent, isUiTextDelta, postJson, readSse } from './sse';
import { clock, now } from './stats';
import { expose } from './threads';

const predicates = { ui: isUiTextDelta, completion: isCompletionContent };

/** Baton's session cookie, sent with every request to Baton (set once by `signIn`). */
let batonSession: { origin: string; cookie: string } | undefined;
const headersFor = (url: string): Record<string, string> => (batonSession && url.startsWith(batonSession.origin) ? { cookie: batonSession.cookie } : {});
type Kind = keyof typeof predicates;

export interface StreamOutcome {
  ok: boolean;
  /** ms from just before fetch() to the first token. */
  firstTokenMs?: number;
  /** clock() just before fetch(), for lining up with marks taken on other threads. */
  startedAt: number;
  tokens: number;
  error?: string;
}

async function stream(url: string, body: unknown, kind: Kind, timeoutMs: number): Promise<StreamOutcome> {
  const startedAt = clock();
  const t0 = now();
  try {
    const res = await postJson(url, body, AbortSignal.timeout(timeoutMs), headersFor(url));
    const read = await readSse(res, predicates[kind]);
    if (read.firstTokenAt === undefined) return { ok: false, startedAt, tokens: 0, error: 'no token in the stream' };
    return { ok: true, startedAt, firstTokenMs: read.firstTokenAt - t0, tokens: read.tokens };
  } catch (err) {
    return { ok: false, startedAt, tokens: 0, error: err instanceof Error ? err.message : String(err) };
  }
}

expose({
  /** From now on, requests to `origin` carry this session cookie. */
  signIn: async ({ origin, cookie }: { origin: string; cookie: string }) => {
    batonSession = { origin, cookie };
  },
  /** One request, read to the end. */
  stream: ({ url, body, kind, timeoutMs = 10_000 }: { url: string; body: unknown; kind: Kind; timeoutMs?: number }) => stream(url, body, kind, timeoutMs),
  /** Every body POSTed at once; resolves when all streams ended. */
  burst: async ({ url, bodies, kind, timeoutMs = 60_000 }: { url: string; bodies: unknown[]; kind: Kind; timeoutMs?: number }) => {
    const t0 = now();
    const outcomes = await Promise.all(bodies.map((b) => stream(url, b, kind, timeoutMs)));
    return { outcomes, wallMs: now() - t0 };
  },
  /** A plain GET, for the HTTP baseline. */
  get: async ({ url }: { url: string }) => {
    const t0 = now();
    const res = await fetch(url, { headers: headersFor(url), signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return now() - t0;
  },
});
