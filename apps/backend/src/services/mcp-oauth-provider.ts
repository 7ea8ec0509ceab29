import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mcpServerOAuth } from '../db/schema';
import { SecretUnreadableError, type Secrets } from '../secrets/secrets';

export type McpOAuthRow = typeof mcpServerOAuth.$inferSelect;

/** A server's OAuth state as the SDK's `auth()` reads and changes it: decrypted, in memory, written back once. */
export interface OAuthRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  discovery?: OAuthDiscoveryState;
  verifier?: string;
}

// Each secret is bound to its server (GCM associated data): copied into another row, it does not decrypt.
const context = (serverId: string, what: 'client' | 'tokens' | 'verifier') => `mcp_server_oauth.${what}:${serverId}`;

/** The row's secrets, decrypted. One that no longer decrypts (the secret key changed) reads as absent: connect again. */
export function readRecord(secrets: Secrets, row: McpOAuthRow | undefined): OAuthRecord {
  if (!row) return {};
  const open = <T>(text: string | null, what: 'client' | 'tokens' | 'verifier'): T | undefined => {
    if (!text) return undefined;
    try {
      const plain = secrets.decrypt(text, context(row.serverId, what));
      return (what === 'verifier' ? plain : JSON.parse(plain)) as T;
    } catch (err) {
      if (err instanceof SecretUnreadableError) return undefined;
      throw err;
    }
  };
  return {
    client: open(row.client, 'client'),
    tokens: open(row.tokens, 'tokens'),
    discovery: (row.discovery ?? undefined) as OAuthDiscoveryState | undefined,
    verifier: open(row.pendingVerifier, 'verifier'),
  };
}

export const sealTokens = (secrets: Secrets, serverId: string, tokens: OAuthTokens) => secrets.encrypt(JSON.stringify(tokens), context(serverId, 'tokens'));
export const sealClient = (secrets: Secrets, serverId: string, client: OAuthClientInformationMixed) =>
  secrets.encrypt(JSON.stringify(client), context(serverId, 'client'));
export const sealVerifier = (secrets: Secrets, serverId: string, verifier: string) => secrets.encrypt(verifier, context(serverId, 'verifier'));

/** When tokens answered with `expires_in` stop working (null: the server did not say). */
export const expiryOf = (tokens: OAuthTokens, now = Date.now()) => (tokens.expires_in === undefined ? null : new Date(now + tokens.expires_in * 1000));

/** States are compared as hashes: the row never holds one that could be replayed. */
export const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');

export async function findOAuthRow(db: Database, workspaceId: string, serverId: string): Promise<McpOAuthRow | undefined> {
  const [row] = await db
    .select()
    .from(mcpServerOAuth)
    .where(and(eq(mcpServerOAuth.workspaceId, workspaceId), eq(mcpServerOAuth.serverId, serverId)))
    .limit(1);
  return row;
}

/**
 * Why `auth()` is being run: `connect` starts the browser flow (a new state and PKCE verifier),
 * `callback` exchanges the code it brought back, `refresh` renews tokens for a connection
 * (a flow it cannot finish is only reported: it must not replace a Connect under way).
 */
export type OAuthPurpose = 'connect' | 'callback' | 'refresh';

/**
 * The SDK's OAuth client, backed by one server's row: `auth()` discovers, registers, builds the
 * authorization URL, exchanges and refreshes; this keeps what it hands over in `record` and
 * marks what changed, which the caller writes back (mcp-oauth.ts).
 */
export class WorkspaceOAuthProvider implements OAuthClientProvider {
  readonly changed = new Set<keyof OAuthRecord>();
  /** Set when `auth()` asks for the browser: where to send the admin. */
  authorizationUrl?: URL;
  /** The `state` of the authorization URL (connect only). */
  newState?: string;

  /** The callback the client was registered with, should `auth()` register again during a refresh. */
  private readonly registeredCallback: string | undefined;

  constructor(
    readonly record: OAuthRecord,
    /** Baton's callback for this server (`connect`/`callback`); a refresh reuses the registered one. */
    private readonly callbackUrl: string | undefined,
    private readonly purpose: OAuthPurpose,
  ) {
    this.registeredCallback = (record.client as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
  }

  get redirectUrl(): string {
    // Never empty: `auth()` takes a provider without one for a non-interactive grant.
    return this.callbackUrl ?? this.registeredCallback ?? 'http://localhost/';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Baton',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A public client: PKCE protects the code, and no client secret has to be kept.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.newState = randomBytes(32).toString('base64url');
    return this.newState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const client = this.record.client;
    // Registered for another callback (BATON_PUBLIC_URL changed): register again.
    const uris = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (client && this.callbackUrl && uris && !uris.includes(this.callbackUrl)) return undefined;
    return client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.record.client = client;
    this.changed.add('client');
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.record.tokens = tokens;
    this.changed.add('tokens');
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    if (this.purpose !== 'connect') return;
    this.record.verifier = verifier;
    this.changed.add('verifier');
  }

  codeVerifier(): string {
    if (!this.record.verifier) throw new Error('no authorization is under way for this server');
    return this.record.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const drop = (key: keyof OAuthRecord) => {
      this.record[key] = undefined;
      this.changed.add(key);
    };
    if (scope === 'all' || scope === 'client') drop('client');
    if (scope === 'all' || scope === 'tokens') drop('tokens');
    if (scope === 'all' || scope === 'discovery') drop('discovery');
    if ((scope === 'all' || scope === 'verifier') && this.purpose === 'connect') drop('verifier');
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.record.discovery = state;
    this.changed.add('discovery');
  }
}
