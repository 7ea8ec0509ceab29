import type { NextConfig } from 'next';

/**
 * The browser only ever talks to this origin: `/api/*` is proxied to the Hono backend
 * (and `/v1/*`, the OpenAI-compatible API, for API clients).
 * Rewrites are resolved when the app is built (`next build`) or started in dev mode, so
 * set BACKEND_URL at that time.
 */
const backendUrl = (process.env.BACKEND_URL ?? 'http://127.0.0.1:3001').replace(/\/+$/, '');

const nextConfig: NextConfig = {
  // The e2e suite builds into its own directory so it never clobbers a regular build.
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  transpilePackages: ['@baton/schemas', '@baton/delegation'],
  poweredByHeader: false,
  // `next dev` serves its scripts to localhost only; http://127.0.0.1:3000 is the same machine.
  allowedDevOrigins: ['127.0.0.1'],
  // Bottom left is the account menu's place in the sidebar.
  devIndicators: { position: 'bottom-right' },
  async rewrites() {
    return [
      { source: '/api/:path*', destination: `${backendUrl}/api/:path*` },
      // The OpenAI-compatible API, so OpenAI clients can use the web app's address too.
      { source: '/v1/:path*', destination: `${backendUrl}/v1/:path*` },
    ];
  },
};

export default nextConfig;
