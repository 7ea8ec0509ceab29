/**
 * Stored secrets (a provider's API key, an MCP server's headers) are sent only to the origin
 * — scheme, host and port — they were entered for. The backend refuses to keep them across
 * a change of origin and the forms ask for them again; both decide with this one rule.
 */

/** `https://api.example.com:443/v1` → `https://api.example.com`; undefined when it is no URL. */
export function urlOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url.trim());
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/** Whether a secret stored for `storedUrl` may not go to `nextUrl` (another origin, or either is unreadable). */
export function secretOriginChanged(storedUrl: string, nextUrl: string): boolean {
  const before = urlOrigin(storedUrl);
  return before === undefined || before !== urlOrigin(nextUrl);
}
