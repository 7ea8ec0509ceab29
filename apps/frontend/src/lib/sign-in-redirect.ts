/**
 * Where a person goes to sign in, and back afterwards. `next` is where they wanted to go:
 * only a path of this site is followed, so a crafted link cannot send someone elsewhere
 * after they sign in.
 */

/** `next` when it is a path on this origin (`/w/…`), else undefined. */
export function safeNext(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  // Control characters (a tab or newline inside "/\t/evil.example") are dropped by URL
  // parsers, which would turn the path into another host.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  if (/[\u0000-\u001f\u007f]/.test(next)) return undefined;
  // The sign-in pages themselves are no destination: that would be a loop.
  if (/^\/(sign-in|setup|forgot-password|reset-password)(?:[/?#]|$)/.test(next)) return undefined;
  return next;
}

export function signInHref(next?: string): string {
  const target = safeNext(next);
  return target && target !== '/' ? `/sign-in?next=${encodeURIComponent(target)}` : '/sign-in';
}

let redirecting = false;

/**
 * The API said 401 (no session, or it expired or was revoked): off to sign in, and back
 * here afterwards. Only once per page, however many requests fail together; the sign-in
 * page itself calls nothing that could send it here again.
 */
export function redirectToSignIn(): void {
  if (redirecting || typeof window === 'undefined') return;
  const { pathname, search } = window.location;
  if (
    pathname === '/sign-in' ||
    pathname === '/setup' ||
    pathname === '/forgot-password' ||
    pathname.startsWith('/invite/') ||
    pathname.startsWith('/reset-password/')
  )
    return;
  redirecting = true;
  window.location.assign(signInHref(`${pathname}${search}`));
}

/** `fetch` for requests that do not go through the API client (the chat stream): a 401 signs in again too. */
export const fetchSignedIn: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (res.status === 401) redirectToSignIn();
  return res;
};
