import { DrizzleQueryError } from 'drizzle-orm';
import { isSafeMessageError } from './errors';
import { log } from './ops/logger';

/**
 * Error texts for logs and for users that never carry query parameters. Drizzle's query
 * errors put every parameter in their message (`params: …`, an API key among them), and the
 * driver's error adds a `detail` ("Failing row contains (…)") with the row's values.
 */

/** A driver error (pg, PGlite): it has a five-character SQLSTATE. */
function isDriverError(err: unknown): err is Error & { code: string } {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

export function isDatabaseError(err: unknown): boolean {
  return err instanceof DrizzleQueryError || isDriverError(err);
}

/**
 * The driver's message without values: class 22 (data exceptions, such as `invalid input
 * syntax for type integer: "…"`) quotes the value after the colon, so only the part before
 * it is kept. `detail`, `where` and the parameters are never used.
 */
function driverErrorText(err: Error & { code: string }): string {
  const message = err.code.startsWith('22') ? err.message.split(':')[0]! : err.message;
  return `${err.code} ${message}`;
}

/** In case a message quotes a query error's message (`…\nparams: …`). */
const withoutParams = (message: string) => message.replace(/\nparams: [\s\S]*$/, '');

function oneErrorText(err: unknown): string {
  if (err instanceof DrizzleQueryError) return `database query failed: ${err.query}`;
  if (isDriverError(err)) return driverErrorText(err);
  if (err instanceof Error) return `${err.name}: ${withoutParams(err.message)}`;
  return withoutParams(String(err));
}

/** The error and its causes, one per line, then the top error's stack frames. */
export function errorTextForLog(err: unknown): string {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  for (let current: unknown = err; current !== undefined && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    lines.push((lines.length === 0 ? '' : 'caused by ') + oneErrorText(current));
    if (!(current instanceof Error)) break;
  }
  const frames = err instanceof Error ? (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)) : [];
  return [...lines, ...frames].join('\n');
}

/** An error log line without the values of any query. */
export function logError(what: string, err: unknown, fields: Record<string, unknown> = {}): void {
  log.error({ ...fields, error: errorTextForLog(err) }, what);
}

/** A failure as a person using Baton may see it: database errors say only that they happened. */
export function errorTextForUser(err: unknown): string {
  if (isSafeMessageError(err)) return err.message;
  for (let current: unknown = err, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth++) {
    if (isDatabaseError(current)) return 'a database query failed';
  }
  return err instanceof Error ? withoutParams(err.message) : withoutParams(String(err));
}
