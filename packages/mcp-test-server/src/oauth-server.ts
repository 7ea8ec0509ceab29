// An MCP server protected by OAuth, as the MCP authorization spec describes it, built with the
// SDK's own server auth pieces: `mcpAuthRouter` serves the protected resource metadata
// (RFC 9728), the authorization server metadata (RFC 8414), dynamic registration (RFC 7591),
// /authorize and /token (code + PKCE, refresh); `requireBearerAuth` guards /mcp and answers
// 401 with `WWW-Authenticate: Bearer … resource_metadata="…"`. The authorization server is in
// memory and approves every request at once (no login page), so a browser or a fetch that
// follows /authorize lands on the client's redirect URI with a code.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { buildMcpServer } from './server';

export interface OAuthMcpServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** How long an access token is good for, in seconds (3600 by default). */
  accessTokenTtlSeconds?: number;
}

export interface OAuthMcpServer {
  /** The MCP endpoint (Streamable HTTP), e.g. `http://127.0.0.1:4321/mcp`. */
  url: string;
  /** The authorization server's issuer (the same origin). */
  issuer: string;
  port: number;
  /** What the authorization server did so far. */
  counts(): { registrations: number; authorizations: number; codeExchanges: number; refreshes: number };
  /** Every access token it issued, in order (to prove Baton never shows one). */
  issuedAccessTokens(): string[];
  /** Every tool call so far, in order. */
  calls(): { name: string; args: unknown }[];
  /** Every access token stops working now (as if revoked); refresh tokens still work. */
  expireAccessTokens(): void;
  /** Every refresh token stops working too: the client must be authorized again. */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: URL;
}

/** An authorization server that approves every request and keeps everything in memory. */
class AutoApprovingProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  readonly access = new Map<string, Grant & { expiresAt: number }>();
  readonly refresh = new Map<string, Grant>();
  readonly issued: string[] = [];
  readonly counts = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0 };

  constructor(private readonly ttlSeconds: number) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        this.counts.registrations++;
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: { redirect(url: string): void }): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, {
      clientId: client.client_id,
      scopes: params.scopes ?? [],
      resource: params.resource,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
    });
    this.counts.authorizations++;
    const back = new URL(params.redirectUri);
    back.searchParams.set('code', code);
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    res.redirect(back.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const grant = this.codes.get(code);
    if (!grant) throw new InvalidGrantError('unknown authorization code');
    return grant.challenge;
  }

  private issue(grant: Grant): OAuthTokens {
    const token = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    this.access.set(token, { ...grant, expiresAt: Date.now() + this.ttlSeconds * 1000 });
    this.refresh.set(refresh, grant);
    this.issued.push(token);
    return { access_token: token, token_type: 'bearer', expires_in: this.ttlSeconds, refresh_token: refresh, scope: grant.scopes.join(' ') };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const grant = this.codes.get(code);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('the code was not issued to this client');
    this.codes.delete(code);
    this.counts.codeExchanges++;
    return this.issue(grant);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    // Rotated: a refresh token is good for one use.
    this.refresh.delete(refreshToken);
    this.counts.refreshes++;
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (!grant || grant.expiresAt <= Date.now()) throw new InvalidTokenError('the access token is not valid');
    return { token, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000), resource: grant.resource };
  }
}

/** Starts the OAuth-protected MCP server (the same tools as `startTestMcpServer`) on 127.0.0.1. */
export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const provider = new AutoApprovingProvider(options.accessTokenTtlSeconds ?? 3600);
  const calls: { name: string; args: unknown }[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const app = createMcpExpressApp();
  // The addresses depend on the port, known once listening: the routes are added then.
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const mcpUrl = new URL(`${origin}/mcp`);
  app.use(
    mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'], resourceName: 'Baton test MCP (OAuth)' }),
  );
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.all('/mcp', bearer, async (req: { headers: Record<string, unknown>; body: unknown }, res: unknown) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, created),
        onsessionclosed: (id) => void transports.delete(id),
      });
      await buildMcpServer((name, args) => calls.push({ name, args })).connect(created);
      transport = created;
    }
    await transport.handleRequest(req as never, res as never, req.body);
  });

  let closing: Promise<void> | undefined;
  return {
    url: mcpUrl.href,
    issuer: origin,
    port,
    counts: () => ({ ...provider.counts }),
    issuedAccessTokens: () => [...provider.issued],
    calls: () => [...calls],
    expireAccessTokens: () => provider.access.clear(),
    revokeRefreshTokens: () => provider.refresh.clear(),
    close: () => {
      closing ??= new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        transports.clear();
      });
      return closing;
    },
  };
}
