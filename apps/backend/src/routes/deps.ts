import type { DatabaseKind } from '@baton/schemas';
import type { AuthSettings, BetterAuth } from '../auth/better-auth';
import type { SsoSignUps } from '../auth/sso';
import type { ProviderLimits } from '../agent/provider-limits';
import type { RuntimeDeps } from '../agent/runtime-types';
import type { FileSettings } from '../services/files';

/** What route modules are built from; tests build the app with their own database and model. */
export interface AppDeps extends RuntimeDeps {
  databaseKind: DatabaseKind;
  /** How often a silent stream gets an SSE keep-alive comment (`BATON_STREAM_KEEPALIVE_MS`, http/keep-alive.ts). */
  streamKeepAliveMs: number;
  auth: AuthSettings & { betterAuth: BetterAuth; ssoSignUps: SsoSignUps };
  providerLimits: ProviderLimits;
  /** Where uploaded files are kept (the database, or S3 with `BATON_S3_*`) and what they may be. */
  files: FileSettings;
  /** `BATON_CORS_ORIGINS`: browser origins that may call `/v1` (none by default; http/cors.ts). */
  corsOrigins?: readonly string[];
  /** `BATON_METRICS_TOKEN`: GET /metrics answers a scraper that sends it (bearer); unset, there are no metrics. */
  metricsToken?: string;
}
