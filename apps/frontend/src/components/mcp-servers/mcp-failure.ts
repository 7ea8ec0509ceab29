import type { McpFailure, McpFailureKind } from '@baton/schemas';

/** What went wrong, and what the person can do about it, for each way a listing fails. */
const advice: Record<McpFailureKind, { title: string; action: string }> = {
  unreachable: {
    title: 'Server unreachable',
    action: 'Check the URL and that the server is running and reachable from Baton’s backend, then refresh.',
  },
  unauthorized: {
    title: 'Not authorised',
    action: 'The server refused Baton’s credentials. Edit the server and check its headers (e.g. Authorization: Bearer <token>).',
  },
  bad_protocol: {
    title: 'Not an MCP server',
    action: 'The URL answered, but not with the MCP protocol. Check the path (often …/mcp) and try another transport.',
  },
  refused_address: {
    title: 'Address not allowed',
    action:
      'Baton does not connect to private or local addresses. Use a public address, or have the operator set BATON_ALLOW_PRIVATE_URLS=true for a trusted network.',
  },
  timeout: {
    title: 'Timed out',
    action: 'The server did not answer in time. Check that it is not overloaded, then refresh.',
  },
  needs_connection: {
    title: 'Needs connecting',
    action: 'This server uses OAuth. A workspace admin clicks Connect and approves Baton at the server’s sign-in page.',
  },
  process_failed: {
    title: 'Server process failed',
    action: 'Baton runs this server and restarts it after a short wait. Its last output is below; the operator can fix its command in BATON_MCP_CONFIG.',
  },
};

/**
 * A listing failure in words: a short title for its kind, and what to do. The backend's
 * message already says that for the case at hand (a redirect, a content type, the HTTP
 * status), so it wins; the generic advice stands in when it is empty.
 */
export function describeMcpFailure(failure: McpFailure): { title: string; action: string } {
  const known = advice[failure.kind] ?? { title: 'Listing failed', action: 'Refresh to try again.' };
  const message = failure.message.trim();
  return { title: known.title, action: message || known.action };
}
