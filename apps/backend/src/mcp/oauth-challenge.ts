import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';

/**
 * What a `401` with a Bearer challenge says about the server's OAuth (MCP authorization,
 * RFC 9728): where its protected resource metadata is, and the scope it wants. Both optional —
 * a server may answer only `WWW-Authenticate: Bearer`, and then its metadata is looked up at
 * `/.well-known/oauth-protected-resource`.
 */
export interface OAuthChallenge {
  resourceMetadataUrl?: string;
  scope?: string;
}

/** The challenge of a `401` answered with `WWW-Authenticate: Bearer …`; undefined for any other answer. */
export function readOAuthChallenge(response: Response): OAuthChallenge | undefined {
  if (response.status !== 401) return undefined;
  const header = response.headers.get('www-authenticate');
  if (!header || !/^\s*bearer\b/i.test(header)) return undefined;
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  // Only an http(s) address is followed later: anything else is as good as none.
  const usable = resourceMetadataUrl && ['http:', 'https:'].includes(resourceMetadataUrl.protocol) ? resourceMetadataUrl.href : undefined;
  return { resourceMetadataUrl: usable, scope: scope || undefined };
}
