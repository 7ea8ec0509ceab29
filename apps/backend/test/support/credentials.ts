/**
 * What the test clients send on every request, as a browser sends its session cookie:
 * `useTestApp` sets the owner's session for its test file (vitest isolates modules per file).
 */
export const clientCredentials: { headers: Record<string, string> } = { headers: {} };

export function withCredentials(headers: HeadersInit = {}): Headers {
  const merged = new Headers(clientCredentials.headers);
  for (const [name, value] of new Headers(headers)) merged.set(name, value);
  return merged;
}
