import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import type { McpTransport } from '@baton/schemas';
import { describeMcpFailure, MCP_CONNECT_TIMEOUT_MS, McpConnectError } from './failures';
import { type OAuthChallenge, readOAuthChallenge } from './oauth-challenge';

/** What a connection needs: where, how, and the decrypted headers (never logged). */
export interface McpEndpoint {
  url: string;
  transport: McpTransport;
  headers: Record<string, string>;
}

export type McpListing = Awaited<ReturnType<MCPClient['listTools']>>;

export interface McpConnection {
  client: MCPClient;
  listing: McpListing;
  /** Closes the session (DELETE for Streamable HTTP), waiting at most a few seconds. Never throws. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Connecting and listing share this deadline (10 s by default). */
  timeoutMs?: number;
  /** Stops the listing when it aborts (the turn was stopped); the handshake keeps to the deadline. */
  signal?: AbortSignal;
}

/** A server that does not confirm the close quickly is left to time the session out. */
const CLOSE_TIMEOUT_MS = 3_000;

/**
 * Connects (Streamable HTTP, or SSE, or `auto`: HTTP first and SSE when the server does not
 * speak HTTP) through `fetch` — the guarded outbound fetch, which @ai-sdk/mcp accepts as
 * its transport's `fetch`, so every request (SSE streams included) passes the address
 * policy and no redirect is followed — and lists the tools. Connecting and listing share
 * one deadline; each tool call later has its own (agent/tools/mcp-tools.ts).
 * Throws McpConnectError with the failure to store or report.
 */
export async function connectMcp(endpoint: McpEndpoint, fetch: typeof globalThis.fetch, options: ConnectOptions = {}): Promise<McpConnection> {
  const { timeoutMs = MCP_CONNECT_TIMEOUT_MS, signal } = options;
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, timeoutMs);
  // Listing also ends when the caller gives up (a turn that is stopped). The handshake obeys
  // the deadline only: given up halfway, a session the server already opened could not be
  // closed (the client skips its DELETE once the handshake's signal is aborted).
  const listing = new AbortController();
  const giveUp = () => listing.abort(signal?.reason ?? deadline.signal.reason);
  deadline.signal.addEventListener('abort', giveUp, { once: true });
  if (signal?.aborted) giveUp();
  signal?.addEventListener('abort', giveUp, { once: true });
  // Which signal the requests of the current phase also obey (connect: the deadline; close: its own bound).
  let phase: AbortSignal | undefined = deadline.signal;
  // A `401` with a Bearer challenge is kept: the failure then says the server wants OAuth.
  let challenge: OAuthChallenge | undefined;
  const phasedFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const signals = [init?.signal, phase].filter((s): s is AbortSignal => Boolean(s));
    const response = await fetch(input, { ...init, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] });
    challenge = readOAuthChallenge(response) ?? challenge;
    return response;
  }) as typeof globalThis.fetch;

  const attempt = async (type: 'http' | 'sse') => {
    phase = deadline.signal;
    const client = await createMCPClient({
      transport: { type, url: endpoint.url, headers: endpoint.headers, fetch: phasedFetch, redirect: 'error' },
      clientName: 'baton',
      // Every request of the handshake obeys the deadline. Aborting the fetch alone is not
      // enough: a POST answered with an SSE stream that ends without the response leaves the
      // request pending, and only its own signal rejects it.
      initializationOptions: { signal: deadline.signal },
      // Errors of a background stream surface on the next request; the default would log them.
      onUncaughtError: () => {},
    });
    phase = listing.signal;
    try {
      return { client, listing: await client.listTools({ options: { signal: listing.signal } }) };
    } catch (err) {
      // A caller that gave up (Stop) while the server was answering: the session it opened is
      // still closed, within the close's own bound (a deadline already past closes at once).
      if (signal?.aborted && !timedOut) phase = AbortSignal.timeout(CLOSE_TIMEOUT_MS);
      await client.close().catch(() => {});
      throw err;
    }
  };

  try {
    let connected: { client: MCPClient; listing: McpListing };
    if (endpoint.transport === 'auto') {
      try {
        connected = await attempt('http');
      } catch (err) {
        const first = describeMcpFailure(err, timedOut, timeoutMs);
        // Only "did not speak Streamable HTTP" is worth an SSE try; the HTTP failure is the clearer one to report.
        if (first.kind !== 'bad_protocol' || listing.signal.aborted) throw new McpConnectError(first, challenge);
        try {
          connected = await attempt('sse');
        } catch {
          throw new McpConnectError(first, challenge);
        }
      }
    } else {
      connected = await attempt(endpoint.transport);
    }
    phase = undefined;
    const { client } = connected;
    return {
      ...connected,
      close: async () => {
        phase = AbortSignal.timeout(CLOSE_TIMEOUT_MS);
        await client.close().catch(() => {});
      },
    };
  } catch (err) {
    throw new McpConnectError(describeMcpFailure(err, timedOut, timeoutMs), err instanceof McpConnectError ? err.challenge : challenge);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', giveUp);
  }
}
