/**
 * Which user a session cookie belongs to, remembered for a few seconds: better-auth's own
 * check (two queries and its request machinery) costs more than the rest of a typical
 * request, and every streamed answer starts with it. Only cookies better-auth accepted are
 * remembered; signing out here forgets at once, on other replicas within `ttlMs`.
 * Membership and roles are never cached: they are read on every request.
 */
export class SessionCache {
  readonly #entries = new Map<string, { userId: string; until: number }>();

  constructor(
    readonly ttlMs = 10_000,
    readonly maxEntries = 10_000,
  ) {}

  get(cookie: string, now = Date.now()): string | undefined {
    const entry = this.#entries.get(cookie);
    if (!entry) return undefined;
    if (entry.until > now) return entry.userId;
    this.#entries.delete(cookie);
    return undefined;
  }

  /** `sessionExpiresAt`: the session's own end, which a cached entry never outlives. */
  set(cookie: string, userId: string, sessionExpiresAt: Date, now = Date.now()): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(cookie, { userId, until: Math.min(now + this.ttlMs, sessionExpiresAt.getTime()) });
  }

  forget(cookie: string): void {
    this.#entries.delete(cookie);
  }

  /** After a password change or reset, which revokes sessions whose cookies this cache cannot name. */
  clear(): void {
    this.#entries.clear();
  }
}

const SESSION_COOKIE = 'baton.session_token';

/** The session cookie's value (signed token), if the request carries one. */
export function sessionCookieValue(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
