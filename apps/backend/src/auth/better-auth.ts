import { drizzleAdapter } from '@better-auth/drizzle-adapter';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RESET_TTL_MINUTES } from '@baton/schemas';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import type { Database } from '../db/client';
import { errorTextForLog, logError } from '../error-text';
import { account, rateLimit, session, user, verification } from '../db/schema';
import { CLIENT_IP_HEADER, type TrustedProxies } from './client-ip';
import type { Mailer } from '../mail/mailer';
import { requestOrigin } from './same-origin';
import { applySignUpGrant } from './sign-up';
import { SSO_SIGN_UP_HEADER, type SsoSettings, type SsoSignUps, ssoPlugin } from './sso';

export interface AuthSettings {
  /** Signs session cookies; derived from Baton's one secret key. */
  secret: string;
  /** Where people reach Baton (`BATON_PUBLIC_URL`); https makes the session cookie Secure. */
  publicUrl?: string;
  /** Anyone may sign up, not only the owner and invited people (`BATON_OPEN_SIGNUP`). */
  openSignup: boolean;
  /** Sign-in (and sign-up) attempts per client address per minute. */
  signInAttemptsPerMinute: number;
  /** Peers whose X-Forwarded-For names the client (`BATON_TRUSTED_PROXIES`); default loopback. */
  trustedProxies?: TrustedProxies;
  /** Outgoing mail (`BATON_SMTP_URL`): "Forgot password?" and emailed invitations. Unset: neither is offered. */
  mailer?: Mailer;
  /** Single sign-on with an OpenID Connect provider (`BATON_OIDC_*`). */
  sso?: SsoSettings;
}

/** The page of the web app where a reset link's holder sets a new password. */
export const resetPasswordUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password/${encodeURIComponent(token)}`;

export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
const DAY_S = 24 * 3600;

/**
 * better-auth for email + password accounts and cookie sessions, stored in Baton's own
 * database through its Drizzle adapter (tables in db/schema.ts).
 */
export function createBetterAuth(db: Database, settings: AuthSettings, ssoSignUps: SsoSignUps) {
  const publicUrl = settings.publicUrl ?? DEFAULT_PUBLIC_URL;
  const attempts = { window: 60, max: settings.signInAttemptsPerMinute };
  const { mailer, sso } = settings;
  return betterAuth({
    appName: 'Baton',
    secret: settings.secret,
    baseURL: publicUrl,
    basePath: '/api/auth',
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification, rateLimit }, transaction: true }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // A reset link (mailed, or issued by an admin: services/password-reset.ts) works once,
      // for an hour, and signs the account out everywhere when used.
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TTL_MINUTES * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: mailer
        ? async ({ user: to, token }) => {
            // The answer never says whether the address has an account, so a failed send is
            // the operator's to see in the log, not the visitor's.
            await mailer
              .send({
                to: to.email,
                subject: 'Reset your Baton password',
                text: `Someone (hopefully you) asked to reset the password of your Baton account ${to.email}.\n\nSet a new password here within ${PASSWORD_RESET_TTL_MINUTES} minutes (the link works once):\n${resetPasswordUrl(publicUrl, token)}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
              })
              .catch((err) => logError('sending a password reset mail failed', err));
          }
        : undefined,
    },
    // Reset tokens are bearer secrets: the table keeps only their hash.
    verification: { storeIdentifier: { default: 'plain', overrides: { 'reset-password:': 'hashed' } } },
    session: { expiresIn: 30 * DAY_S, updateAge: DAY_S },
    account: {
      // See SsoSettings.linkByEmail: off unless the operator trusts the provider's emails.
      accountLinking: { enabled: true, requireLocalEmailVerified: !sso?.linkByEmail, disableImplicitLinking: !sso?.linkByEmail },
    },
    plugins: sso ? [ssoPlugin(sso)] : [],
    databaseHooks: {
      user: {
        create: {
          // Accounts made by single sign-on follow Baton's sign-up rules (sso-routes.ts decided
          // them for this callback); accounts made by sign-up/email are handled by its route.
          before: async (_user, ctx) => {
            if (!ctx?.path?.startsWith('/callback/')) return;
            const pending = ssoSignUps.get(ctx.headers?.get(SSO_SIGN_UP_HEADER));
            if (!pending || 'refused' in pending.decision) {
              throw new APIError('FORBIDDEN', {
                code: 'SIGN_UP_REFUSED',
                message: pending && 'refused' in pending.decision ? pending.decision.refused : 'sign-up refused',
              });
            }
          },
          // After the account's transaction: Baton's own writes must not wait on it (PGlite has one connection).
          after: async (created, ctx) => {
            if (!ctx?.path?.startsWith('/callback/')) return;
            const pending = ssoSignUps.get(ctx.headers?.get(SSO_SIGN_UP_HEADER));
            if (!pending || !('grant' in pending.decision)) return;
            pending.userId = created.id;
            await applySignUpGrant(db, pending.decision.grant, created).catch((err) => {
              pending.failure = err;
            });
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      // In the database, so every replica counts the same attempts.
      storage: 'database',
      modelName: 'rateLimit',
      window: 60,
      max: 300,
      // Every way in counts against the same per-address limit (each path its own bucket):
      // passwords, reset links, reset mails, single sign-on's start and its callback.
      customRules: {
        '/sign-in/*': attempts,
        '/sign-up/*': attempts,
        '/change-password': attempts,
        '/reset-password': attempts,
        '/request-password-reset': attempts,
        '/callback/*': attempts,
      },
    },
    // The browser reaches the API through the web app's origin (Next forwards /api), or
    // directly; either way a request's own origin is trusted, a foreign one never. The
    // forwarded headers reach here only from a trusted proxy (auth-routes.ts removes others).
    trustedOrigins: (request) => [publicUrl, request ? requestOrigin(request, true) : undefined],
    advanced: {
      // better-auth skips its origin and CSRF checks when it thinks it runs under a test
      // runner; Baton's tests must exercise exactly what production runs.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      cookiePrefix: 'baton',
      useSecureCookies: publicUrl.startsWith('https:'),
      // Set by Baton from the socket (see client-ip.ts), never taken from the client.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    telemetry: { enabled: false },
    // An error that is not better-auth's own (a failed query above all) leaves its handler
    // instead of being printed by it: better-call would `console.error` the whole error, whose
    // message carries the query's parameters (an email, a session token). Baton's error
    // handler logs it without them (error-text.ts) and answers 500 in Baton's shape.
    onAPIError: { throw: true },
    logger: {
      level: 'error',
      // What better-auth still logs itself may quote a failed query (it logs the message of
      // "relation … does not exist" errors as is): the same parameter-free text as every log.
      log: (level, message, ...args) => {
        const reasons = args.map((a) => (a instanceof Error || typeof a === 'string' ? errorTextForLog(a).split('\n')[0] : '')).filter(Boolean);
        console[level](`auth: ${errorTextForLog(message)}${reasons.length ? ` (${reasons.join(', ')})` : ''}`);
      },
    },
  });
}

export type BetterAuth = ReturnType<typeof createBetterAuth>;
