import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/*
 * "No secret in any log line of the suite" (issue 23): every test file's backend log goes to
 * a file of the run's log directory (suite-log-setup.ts, and spawned backends' output through
 * `appendToSuiteLog`), and every secret a test sends or receives — passwords, session cookies,
 * API keys, bearer tokens, provider keys, MCP headers, OAuth codes and tokens — is written to
 * a list beside them as the test app sees it. After the run, global-setup.ts's teardown looks
 * for each secret in each log and fails the run naming the file and the line.
 */

/** JSON fields whose string values are secrets, wherever they appear in a body. */
const SECRET_FIELDS = new Set([
  'password',
  'newPassword',
  'currentPassword',
  'apiKey',
  'api_key',
  'key',
  'token',
  'secret',
  'clientSecret',
  'client_secret',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'code_verifier',
]);
/** Query parameters that carry secrets (OAuth callbacks, links with tokens). */
const SECRET_PARAMS = ['code', 'token', 'access_token', 'key'];
/** Shorter values are words, not secrets ("up", "key"), and would match by chance. */
const MIN_SECRET_LENGTH = 8;

const dir = () => inject('suiteLog').dir;
const workerFile = (kind: string) => join(dir(), `${kind}-${process.pid}.txt`);

/** Adds values to the run's list of secrets (one JSON string per line). */
export function rememberSecrets(values: Iterable<string | undefined | null>): void {
  const lines = [...values].filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET_LENGTH).map((v) => `${JSON.stringify(v)}\n`);
  if (lines.length > 0) appendFileSync(workerFile('secrets'), lines.join(''));
}

/** Output of a backend the test started as a process, kept with the suite's log. */
export function appendToSuiteLog(text: string): void {
  appendFileSync(workerFile('log-processes'), text);
}

/** The log file of the calling worker's in-process backends. */
export function suiteLogFile(): string {
  return workerFile('log');
}

function secretsInJson(value: unknown, found: string[], underHeaders = false): void {
  if (Array.isArray(value)) {
    for (const item of value) secretsInJson(item, found, underHeaders);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [name, inner] of Object.entries(value)) {
    // MCP servers' and remote agents' headers: every value is a credential.
    if (typeof inner === 'string' && (underHeaders || SECRET_FIELDS.has(name))) found.push(inner);
    else secretsInJson(inner, found, name === 'headers' || name === 'env');
  }
}

function secretsInHeaders(headers: Headers): string[] {
  const found: string[] = [];
  const auth = headers.get('authorization');
  if (auth) found.push(auth.replace(/^(Bearer|Basic)\s+/i, ''));
  for (const name of ['x-api-key', 'api-key']) {
    const value = headers.get(name);
    if (value) found.push(value);
  }
  for (const cookie of (headers.get('cookie') ?? '').split(';')) {
    const value = cookie.split('=').slice(1).join('=').trim();
    if (value) found.push(value, decoded(value));
  }
  return found;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Complete JSON bodies only: reading a streamed one (SSE, NDJSON) here would hold the test's stream back. */
async function jsonSecrets(body: Request | Response): Promise<string[]> {
  if (!body.headers.get('content-type')?.startsWith('application/json') || !body.body) return [];
  try {
    const found: string[] = [];
    secretsInJson(JSON.parse(await body.clone().text()), found);
    return found;
  } catch {
    return [];
  }
}

async function formSecrets(request: Request): Promise<string[]> {
  if (!request.headers.get('content-type')?.includes('application/x-www-form-urlencoded')) return [];
  const form = new URLSearchParams(await request.clone().text());
  return [...form].filter(([name]) => SECRET_FIELDS.has(name)).map(([, value]) => value);
}

// `env` is what @hono/node-server passes along (the socket, which the app asks for the peer's address).
type Handler = (request: Request, env?: unknown) => Response | Promise<Response>;
type AsyncHandler = (request: Request, env?: unknown) => Promise<Response>;

/** The app's `fetch`, remembering the secrets of every request and response that passes. */
export function observeSecrets(handler: Handler): AsyncHandler {
  return async (request, env) => {
    const params = new URL(request.url).searchParams;
    rememberSecrets([
      ...secretsInHeaders(request.headers),
      ...SECRET_PARAMS.map((name) => params.get(name)),
      ...(await jsonSecrets(request)),
      ...(await formSecrets(request)),
    ]);
    const response = await handler(request, env);
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=').slice(1).join('='));
    rememberSecrets([...cookies, ...cookies.map(decoded), ...(await jsonSecrets(response))]);
    return response;
  };
}
