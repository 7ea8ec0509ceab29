// The web app's production server (`pnpm start`, the Docker image, the e2e suite): Next's own
// request handler — `next()`, the same router `next start` runs — behind a node:http server
// that first names each request's client in X-Forwarded-For, which Next's `/api` and `/v1`
// rewrites do not (server/forwarded-for.mjs says why). Serves the build of `next build` (in
// NEXT_DIST_DIR, like next.config.ts). `next dev` stays as it is: a development server, not
// for exposure.
//
// Options as for `next start`: `-H <host>` (default HOST, else 127.0.0.1), `-p <port>` (default 3000; not
// PORT, which is the backend's), `--keepAliveTimeout <ms>` (default 65000, see below).
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { appendForwardedFor } from './server/forwarded-for.mjs';

// As `next start` does before Next is loaded: without it the server renders with React's
// development build, which the production pages in the browser do not match.
process.env.NODE_ENV ??= 'production';
const { default: next } = await import('next');

const { values } = parseArgs({
  options: {
    hostname: { type: 'string', short: 'H' },
    port: { type: 'string', short: 'p' },
    keepAliveTimeout: { type: 'string' },
  },
});
const hostname = values.hostname || process.env.HOST || '127.0.0.1';
const port = Number(values.port) || 3000;
// Idle keep-alive sockets live 65 s, like the backend's (Node's default is 5 s): a client that
// reused a socket just as the server closed it got ECONNRESET (the e2e request context did).
const keepAliveTimeout = Number(values.keepAliveTimeout) || 65_000;

const app = next({ dev: false, hostname, port, dir: fileURLToPath(new URL('.', import.meta.url)) });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer(async (req, res) => {
  appendForwardedFor(req.headers, req.socket.remoteAddress);
  try {
    await handle(req, res);
  } catch (err) {
    // As `next start` answers a request its handler threw on, instead of the unhandled
    // rejection ending the process.
    console.error(`Failed to handle request for ${req.url}`, err);
    if (!res.headersSent) res.statusCode = 500;
    res.end('Internal Server Error');
  }
});
server.keepAliveTimeout = keepAliveTimeout;
server.listen(port, hostname, () => console.log(`Baton web app ready on http://${hostname}:${port}`));

// As `next start`: stop taking connections, let Next close, then exit with the signal's code.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    server.close(() => {
      app.close().finally(() => process.exit(code));
    });
    server.closeIdleConnections();
  });
}
