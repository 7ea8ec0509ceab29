import type { McpFailure, McpFailureKind } from '@baton/schemas';
import { OutboundRefusedError, RedirectRefusedError } from '../outbound/guarded-fetch';
import type { OAuthChallenge } from './oauth-challenge';

/** What an OAuth server without (valid) tokens is listed with: an admin has to connect Baton to it. */
export const NEEDS_CONNECTION: McpFailure = {
  kind: 'needs_connection',
  message: 'This server uses OAuth: a workspace admin connects Baton to it with “Connect” on the Tool servers page.',
};

/** How long Baton waits for a server to connect and list its tools. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;

/** How long one tool call may take by default (BATON_MCP_CALL_TIMEOUT_MS). */
export const MCP_CALL_TIMEOUT_MS = 60_000;

/** `ms` as a person reads it: "10 s", or "1.5 s". */
export const secondsText = (ms: number) => `${ms / 1000} s`;

/** A server could not be reached or used; `failure` is what is stored and shown. */
export class McpConnectError extends Error {
  /** `challenge`: the server answered `401` with a Bearer challenge (it may want OAuth; mcp/oauth-challenge.ts). */
  constructor(
    readonly failure: McpFailure,
    readonly challenge?: OAuthChallenge,
  ) {
    super(failure.message);
    this.name = 'McpConnectError';
  }
}

const failure = (kind: McpFailureKind, message: string): McpFailure => ({ kind, message });

/**
 * The failure as a person can act on it. The client's own error text may quote the
 * server's answer (which could echo a header), so only a status code or a content type
 * is taken from it, never the text itself.
 */
export function describeMcpFailure(err: unknown, timedOut: boolean, timeoutMs: number): McpFailure {
  if (err instanceof McpConnectError) return err.failure;
  if (err instanceof OutboundRefusedError) return failure('refused_address', err.message);
  if (timedOut) return failure('timeout', `The server did not answer within ${secondsText(timeoutMs)}. Check the URL and that the server is running.`);
  if (err instanceof RedirectRefusedError) {
    return failure('bad_protocol', 'The server answered with a redirect. Baton does not follow redirects: use the address it redirects to.');
  }
  const text = err instanceof Error ? err.message : String(err);
  const status = /\(HTTP (\d{3})\)|Error: (\d{3}) /.exec(text);
  const code = status ? Number(status[1] ?? status[2]) : undefined;
  if (code === 401 || code === 403) {
    return failure('unauthorized', `The server refused Baton's credentials (HTTP ${code}). Check the headers, e.g. Authorization.`);
  }
  if (err instanceof TypeError || (err as { name?: string })?.name === 'TypeError') {
    return failure('unreachable', 'Baton could not connect to the server. Check the URL and that the server is running and reachable from Baton.');
  }
  const contentType = /Unexpected content type: ([\w.+-]+\/[\w.+-]+)/.exec(text)?.[1];
  const detail = code ? ` (HTTP ${code})` : contentType ? ` (it sent ${contentType})` : '';
  return failure('bad_protocol', `The server answered, but not as an MCP server${detail}. Is the URL the MCP endpoint (often ending in /mcp or /sse)?`);
}
