import { randomUUID } from 'node:crypto';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { SignUpGrant } from './sign-up';

/** The one OpenID Connect provider Baton offers (`BATON_OIDC_*`). Its callback is `<public URL>/api/auth/callback/oidc`. */
export const SSO_PROVIDER_ID = 'oidc';

export interface SsoSettings {
  /** The provider's discovery document (`<issuer>/.well-known/openid-configuration`). */
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** The button says "Sign in with <label>". */
  label: string;
  scopes: string[];
  /**
   * An existing Baton account whose email the provider asserts as verified is signed in (and
   * linked) by single sign-on. Off by default: whoever created the Baton account with that
   * address (by an invite link) would share it with the provider's user.
   */
  linkByEmail: boolean;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

/** Single sign-on when `BATON_OIDC_ISSUER` (or `BATON_OIDC_DISCOVERY_URL`) is set; the client id and secret are then required. */
export function ssoSettingsFromEnv(env: NodeJS.ProcessEnv): SsoSettings | undefined {
  const issuer = env.BATON_OIDC_ISSUER?.trim();
  const discovery = env.BATON_OIDC_DISCOVERY_URL?.trim();
  if (!issuer && !discovery) return undefined;
  const discoveryUrl = discovery || `${issuer!.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const url = URL.canParse(discoveryUrl) ? new URL(discoveryUrl) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw new Error(`BATON_OIDC_ISSUER / BATON_OIDC_DISCOVERY_URL must be an http(s) URL, got "${issuer ?? discovery}"`);
  }
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`${name} must be set when single sign-on is configured (BATON_OIDC_ISSUER)`);
    return value;
  };
  return {
    discoveryUrl,
    clientId: required('BATON_OIDC_CLIENT_ID'),
    clientSecret: required('BATON_OIDC_CLIENT_SECRET'),
    label: env.BATON_OIDC_LABEL?.trim() || 'single sign-on',
    scopes: (env.BATON_OIDC_SCOPES?.trim() || 'openid email profile').split(/[\s,]+/).filter(Boolean),
    linkByEmail: flag(env, 'BATON_OIDC_LINK_BY_EMAIL'),
  };
}

/** better-auth's generic OAuth plugin for the configured provider (discovery, PKCE, verified ID tokens). */
export function ssoPlugin(sso: SsoSettings) {
  return genericOAuth({
    config: [
      {
        providerId: SSO_PROVIDER_ID,
        name: sso.label,
        discoveryUrl: sso.discoveryUrl,
        clientId: sso.clientId,
        clientSecret: sso.clientSecret,
        scopes: sso.scopes,
        pkce: true,
        requireIdTokenVerification: true,
      },
    ],
  });
}

/** The header by which Baton's callback route tells better-auth's user hooks which sign-up decision is theirs. */
export const SSO_SIGN_UP_HEADER = 'x-baton-sso-sign-up';

interface PendingSignUp {
  /** What a new account gets, or why none may be made. */
  decision: { grant: SignUpGrant } | { refused: string };
  /** Set once better-auth created the account. */
  userId?: string;
  /** Set when giving the account its grant failed: the callback route removes the account. */
  failure?: unknown;
}

/**
 * The sign-up decision of each single sign-on callback in flight. Baton decides before
 * better-auth runs (who may sign up needs queries that better-auth's open transaction must
 * not wait on), better-auth's user hooks read it (before: refuse; after the account's
 * transaction: give the grant), and the callback route reads the outcome.
 */
export class SsoSignUps {
  readonly #pending = new Map<string, PendingSignUp>();

  open(decision: PendingSignUp['decision']): string {
    const id = randomUUID();
    this.#pending.set(id, { decision });
    return id;
  }

  get(id: string | null | undefined): PendingSignUp | undefined {
    return id ? this.#pending.get(id) : undefined;
  }

  close(id: string): PendingSignUp | undefined {
    const entry = this.#pending.get(id);
    this.#pending.delete(id);
    return entry;
  }
}
