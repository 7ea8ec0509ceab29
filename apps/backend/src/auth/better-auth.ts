import { drizzleAdapter } from '@better-auth/drizzle-adapter';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@baton/schemas';
import { betterAuth } from 'better-auth';
import type { Database } from '../db/client';
import { errorTextForLog } from '../error-text';
import { account, rateLimit, session, user, verification } from '../db/schema';
import { CLIENT_IP_HEADER, type TrustedProxies } from './client-ip';
import { requestOrigin } from './same-origin';

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
}

export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
const DAY_S = 24 * 3600;

/**
 * better-auth for email + password accounts and cookie sessions, stored in Baton's own
 * database through its Drizzle adapter (tables in db/schema.ts).
 */
export function createBetterAuth(db: Database, settings: AuthSettings) {
  const publicUrl = settings.publicUrl ?? DEFAULT_PUBLIC_URL;
  const attempts = { window: 60, max: settings.signInAttemptsPerMinute };
  return betterAuth({
    appName: 'Baton',
    secret: settings.secret,
    baseURL: publicUrl,
    basePath: '/api/auth',
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification, rateLimit }, transaction: true }),
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: PASSWORD_MIN_LENGTH, maxPasswordLength: PASSWORD_MAX_LENGTH },
    session: { expiresIn: 30 * DAY_S, updateAge: DAY_S },
    rateLimit: {
      enabled: true,
      // In the database, so every replica counts the same attempts.
      storage: 'database',
      modelName: 'rateLimit',
      window: 60,
      max: 300,
      customRules: { '/sign-in/email': attempts, '/sign-up/email': attempts },
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
