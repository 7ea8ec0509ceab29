import type { NextConfig } from 'next';

/**
 * The browser only ever talks to this origin: `/api/*` is proxied to the Hono backend
 * (and `/v1/*`, the OpenAI-compatible API, and `/a2a/*`, agents published over A2A, for API clients).
 * Rewrites are resolved when the app is built (`next build`) or started in dev mode, so
 * set BACKEND_URL at that time.
 */
const backendUrl = (process.env.BACKEND_URL ?? 'http://127.0.0.1:3001').replace(/\/+$/, '');

/**
 * How long the proxy waits on a silent backend connection before dropping it. Next's
 * default is 30 s (`proxyTimeout || 30000` in next/dist/server/lib/router-utils/proxy-request.js,
 * a socket idle timeout, for `next start` and `next dev` alike; 0 also means 30 s), which cut
 * a thinking model's answer and any non-streamed call that takes longer (a `/v1` completion
 * without `stream`, Stop waiting for the answer's end). Streams get a keep-alive every 15 s
 * from the backend anyway; this is for what has no stream. BATON_PROXY_TIMEOUT_MS, read when
 * the server starts (and at build).
 */
const proxyTimeoutMs = Number(process.env.BATON_PROXY_TIMEOUT_MS) || 15 * 60_000;

const nextConfig: NextConfig = {
  // The e2e suite builds into its own directory so it never clobbers a regular build.
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  transpilePackages: ['@baton/schemas', '@baton/delegation'],
  poweredByHeader: false,
  // `next dev` serves its scripts to localhost only; http://127.0.0.1:3000 is the same machine.
  allowedDevOrigins: ['127.0.0.1'],
  // Bottom left is the account menu's place in the sidebar.
  devIndicators: { position: 'bottom-right' },
  experimental: { proxyTimeout: proxyTimeoutMs },
  async rewrites() {
    return [
      { source: '/api/:path*', destination: `${backendUrl}/api/:path*` },
      // The OpenAI-compatible API, so OpenAI clients can use the web app's address too.
      { source: '/v1/:path*', destination: `${backendUrl}/v1/:path*` },
      // Published agents over A2A (their Agent Cards and JSON-RPC endpoints), for A2A clients.
      { source: '/a2a/:path*', destination: `${backendUrl}/a2a/:path*` },
    ];
  },
};

export default nextConfig;
