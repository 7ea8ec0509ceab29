// oidc-provider ships no types (@types/oidc-provider lags its major versions): what the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface OidcAccountClaims {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?(ctx: unknown, id: string): Promise<OidcAccountClaims | undefined> });
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: unknown, err: Error) => void): this;
  }
}
