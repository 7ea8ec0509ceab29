import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * `BATON_CORS_ORIGINS`: the browser origins (`https://app.example.com`, comma-separated) whose
 * pages may call `/v1` with an API key, or `*` for any. None by default: a page of another
 * origin cannot read `/v1` at all.
 */
export function parseCorsOrigins(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (entry === '*') continue;
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
      throw new Error(`BATON_CORS_ORIGINS must list origins such as https://app.example.com (scheme, host and port only) or *, got "${entry}"`);
    }
  }
  return entries.map((e) => (e === '*' ? e : new URL(e).origin));
}

/**
 * CORS for `/v1` from the listed origins: a preflight is answered before authentication (a
 * browser sends it without the API key), every answer — errors included — names the origin,
 * and the headers an OpenAI client reads are exposed. No cookies: `/v1` takes API keys only.
 * Without origins nothing is added.
 */
export function apiCors(origins: readonly string[]): MiddlewareHandler {
  if (origins.length === 0) return (_c, next) => next();
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    // The request's own headers are allowed (OpenAI clients send x-stainless-* headers of their own).
    maxAge: 600,
    exposeHeaders: ['X-Baton-Chat-Id', 'x-should-retry', 'retry-after', 'retry-after-ms', 'x-request-id'],
  });
}
