/**
 * Why single sign-on sent the browser back with `?error=<code>`, in words a person can act
 * on. Only known codes get their own sentence: the description in the address is never
 * shown, since anyone can craft a link carrying any text.
 */
export function ssoErrorMessage(code: string | undefined, label: string | undefined): string | undefined {
  if (!code) return undefined;
  const via = label ? `with ${label}` : 'with single sign-on';
  switch (code.toLowerCase()) {
    case 'sign_up_refused':
      return `There is no Baton account for you yet. Ask a workspace admin for an invite link, open it, and join ${via} there.`;
    case 'account_not_linked':
      return `A Baton account with your email address exists already, and it signs in with its password: use it below. Signing in ${via} is not linked to existing accounts on this server.`;
    case 'sign_up_failed':
      return 'Your account could not be set up. Try again, or ask a workspace admin.';
    case 'access_denied':
      return `Signing in ${via} was cancelled.`;
    default:
      return `Signing in ${via} did not work (${code.slice(0, 60)}). Try again, or sign in with your password.`;
  }
}
