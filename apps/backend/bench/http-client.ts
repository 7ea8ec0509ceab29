// The load generator's HTTP client: plain node:http (no web streams), so that the client
// spends little CPU per event and what it measures is the servers, not itself.
import { Agent, request, type IncomingMessage } from 'node:http';
import { now } from './stats';

/**
 * Every request of the benchmark gets its headers here, Baton's and the model's alike
 * (the demo model ignores the API key; sending it to both keeps the two paths equal).
 */
let authorization: string | undefined;

/** Every later request of the bench sends this API key (as a REST client would). */
export function useApiKey(key: string): void {
  authorization = `Bearer ${key}`;
}

export function requestHeaders(body?: string): Record<string, string> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return headers;
}

const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });

/** Destroys the client's idle keep-alive sockets (at the end of the run). */
export const closeClient = () => agent.destroy();

function send(method: string, url: string, body: unknown, timeoutMs: number, onResponse: (res: IncomingMessage) => void, onError: (err: Error) => void) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const req = request(url, { method, agent, headers: requestHeaders(payload), signal: AbortSignal.timeout(timeoutMs) }, onResponse);
  req.on('error', onError);
  req.end(payload);
}

/** A JSON request; resolves with the status and the parsed body (undefined when not JSON). */
export function requestJson(method: string, url: string, body?: unknown, timeoutMs = 10_000): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    send(
      method,
      url,
      body,
      timeoutMs,
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (s: string) => (text += s));
        res.on('end', () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on('error', reject);
      },
      reject,
    );
  });
}

/** `ui`: Baton's UI message stream (`text-delta` chunks); `completion`: OpenAI chat.completion.chunk. */
export type StreamKind = 'ui' | 'completion';

export interface StreamResult {
  ok: boolean;
  error?: string;
  /** now() just before the request was sent. */
  start: number;
  /** now() when the first word was read. */
  firstWordAt?: number;
  /** Words of text received (a frame may carry several when a server coalesces). */
  words: number;
  /** Per socket read that carried words: when it was read and how many words it carried. */
  arrivals?: { at: number[]; words: number[] };
}

const WORD = /\S+/g;
function countWords(text: string): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text)) n++;
  return n;
}

/** The text words of one SSE `data:` payload, or an error it reports. */
function wordsOf(kind: StreamKind, payload: any): number | Error {
  if (kind === 'completion') {
    const content = payload?.choices?.[0]?.delta?.content;
    return typeof content === 'string' ? countWords(content) : 0;
  }
  if (payload?.type === 'text-delta') return countWords(payload.delta);
  if (payload?.type === 'error') return new Error(`stream error: ${payload.errorText}`);
  if (payload?.type === 'data-run-error') return new Error(`run error: ${payload.data?.code}: ${payload.data?.message}`);
  return 0;
}

/**
 * POSTs `body` and reads the SSE answer to its end, timing every read that carries words.
 * Succeeds when the stream ends with `[DONE]` after at least one word. Bounded by `timeoutMs`.
 */
export function streamWords(url: string, body: unknown, kind: StreamKind, { timeoutMs = 60_000, keepArrivals = false } = {}): Promise<StreamResult> {
  return new Promise((resolve) => {
    const out: StreamResult = { ok: false, start: now(), words: 0, ...(keepArrivals ? { arrivals: { at: [], words: [] } } : {}) };
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      if (error) out.error = error;
      else if (out.words === 0) out.error = 'no words in the stream';
      else out.ok = true;
      resolve(out);
    };
    send(
      'POST',
      url,
      body,
      timeoutMs,
      (res) => {
        if (res.statusCode !== 200) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (s: string) => (text += s));
          res.on('end', () => finish(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          res.on('error', (err) => finish(err.message));
          return;
        }
        let buffer = '';
        let done = false;
        res.setEncoding('utf8');
        res.on('data', (s: string) => {
          const at = now();
          buffer += s;
          let words = 0;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = event.indexOf('data: ');
            if (data < 0) continue;
            const payload = event.slice(data + 6);
            if (payload === '[DONE]') {
              done = true;
              continue;
            }
            const n = wordsOf(kind, JSON.parse(payload));
            if (n instanceof Error) {
              res.destroy();
              return finish(n.message);
            }
            words += n;
          }
          if (words > 0) {
            out.firstWordAt ??= at;
            out.words += words;
            out.arrivals?.at.push(at);
            out.arrivals?.words.push(words);
          }
        });
        res.on('end', () => finish(done ? undefined : 'the stream ended without [DONE]'));
        res.on('error', (err) => finish(err.message));
      },
      (err) => finish(err.message),
    );
  });
}

/** Runs `fn` over `items` with at most `concurrency` at a time. */
export async function inPool<T, R>(items: T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/**
 * Signs the bench's owner up on a fresh Baton (or in, when the database already has them)
 * and makes an API key for the default workspace, which every request then sends (returned too:
 * a bench that talks to several Batons switches between their keys with `useApiKey`).
 */
export async function signInBench(batonUrl: string): Promise<string> {
  const account = { name: 'Bench', email: 'bench@baton.test', password: 'bench passphrase' };
  const status = (await (await fetch(`${batonUrl}/api/auth-status`)).json()) as { needsOwner: boolean };
  const path = status.needsOwner ? '/api/auth/sign-up/email' : '/api/auth/sign-in/email';
  const body = status.needsOwner ? account : { email: account.email, password: account.password };
  const signedIn = await fetch(`${batonUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c?.startsWith('baton.session_token='));
  if (!signedIn.ok || !cookie) throw new Error(`signing the bench in: HTTP ${signedIn.status} ${await signedIn.text()}`);
  const key = await fetch(`${batonUrl}/api/workspaces/default/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (key.status !== 201) throw new Error(`creating the bench's API key: HTTP ${key.status} ${await key.text()}`);
  const made = ((await key.json()) as { key: string }).key;
  useApiKey(made);
  return made;
}
